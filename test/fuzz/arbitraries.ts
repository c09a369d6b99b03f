// fast-check arbitraries built from the OpenAPI document: values from a JSON schema (valid-ish), their mutations
// (missing required, extra fields, wrong types, huge strings and numbers, deep nesting), raw non-JSON bodies,
// content types, query strings and path parameters, all for the fuzz suite of openapi.fuzz.test.ts.
import fc from 'fast-check';

export type JsonSchema = Record<string, any>;

/** Strings of every flavour: ASCII, full unicode (graphemes), any code point, and a few nasty constants. */
export const anyString = (maxLength = 40): fc.Arbitrary<string> =>
  fc.oneof(
    fc.string({ maxLength }),
    fc.string({ maxLength, unit: 'grapheme' }),
    fc.string({ maxLength, unit: 'binary' }),
    fc.constantFrom(
      '',
      ' ',
      '\u0000',
      '\ud800',
      '\u202e',
      '../../etc/passwd',
      '%00',
      '$' + '{jndi:x}',
      "' or 1=1 --",
      '<script>',
      '🦄'.repeat(30),
    ),
  );

/** Numbers that break naive code: huge, tiny, negative zero, beyond 2^53, non-integers. */
export const nastyNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(-0, 1e308, -1e308, 2 ** 53 + 2, -(2 ** 53) - 2, 2 ** 31, 2 ** 32, 1e21, 0.1, -1, 5e-324),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

const WEIRD_NUMBER_TEXT = [
  '-1',
  '0',
  '-0',
  '1.5',
  '1e3',
  '1e400',
  '0x10',
  ' 5',
  '5 ',
  '+5',
  '00',
  '01',
  'NaN',
  'Infinity',
  '-Infinity',
  'true',
  'null',
  '99999999999999999999999',
  '9'.repeat(300),
  '１２',
  '',
];

function stringFromSchema(s: JsonSchema): fc.Arbitrary<string> {
  const min = typeof s.minLength === 'number' ? s.minLength : 0;
  const max = Math.max(min, Math.min(typeof s.maxLength === 'number' ? s.maxLength : 40, 60));
  if (s.format === 'uri' || (typeof s.pattern === 'string' && s.pattern.startsWith('^https?:'))) {
    return fc.webUrl().map((u) => u.slice(0, typeof s.maxLength === 'number' ? s.maxLength : undefined));
  }
  if (typeof s.pattern === 'string') {
    let re: RegExp | undefined;
    try {
      re = new RegExp(s.pattern);
    } catch {
      re = undefined;
    }
    if (re) {
      const fit = (x: string) => (typeof s.maxLength === 'number' ? x.slice(0, s.maxLength) : x);
      return fc.oneof(
        { weight: 3, arbitrary: fc.stringMatching(re).map(fit) },
        { weight: 1, arbitrary: fc.string({ minLength: min, maxLength: max }) },
      );
    }
  }
  const plain = [
    { weight: 4, arbitrary: fc.string({ minLength: min, maxLength: max }) },
    { weight: 4, arbitrary: fc.string({ minLength: min, maxLength: max, unit: 'grapheme' }) },
  ];
  // Text PostgreSQL cannot store (NUL) and lone surrogates, within the length bounds.
  const nasty = { weight: 1, arbitrary: fc.constantFrom('a\u0000b', '\ud800x', 'x\udfff') };
  return fc.oneof(...(max >= 3 && min <= 3 ? [...plain, nasty] : plain));
}

function integerFromSchema(s: JsonSchema): fc.Arbitrary<number> {
  const min = typeof s.minimum === 'number' ? s.minimum : -1_000_000;
  const max = typeof s.maximum === 'number' ? s.maximum : 1_000_000;
  return fc.oneof(
    fc.bigInt({ min: BigInt(Math.ceil(min)), max: BigInt(Math.floor(max)) }).map(Number),
    fc.constantFrom(min, max),
  );
}

/** Values that (mostly) satisfy the schema. Never deeper than a few levels. */
export function fromSchema(s: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!s || depth > 6) return fc.jsonValue({ maxDepth: 2 });
  if (Array.isArray(s.enum) && s.enum.length > 0) return fc.constantFrom(...(s.enum as unknown[]));
  if ('const' in s) return fc.constant(s.const);
  const alternatives = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(alternatives) && alternatives.length > 0) {
    return fc.oneof(...alternatives.map((a) => fromSchema(a, depth + 1)));
  }
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'string':
      return stringFromSchema(s);
    case 'integer':
      return integerFromSchema(s);
    case 'number':
      return fc.double({
        min: typeof s.minimum === 'number' ? s.minimum : -1e9,
        max: typeof s.maximum === 'number' ? s.maximum : 1e9,
        noNaN: true,
        noDefaultInfinity: true,
      });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = typeof s.minItems === 'number' ? s.minItems : 0;
      const maxLength = Math.max(minLength, Math.min(typeof s.maxItems === 'number' ? s.maxItems : 4, 4));
      return fc.array(fromSchema(s.items as JsonSchema, depth + 1), { minLength, maxLength });
    }
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, JsonSchema>;
      const keys = Object.keys(props);
      if (keys.length === 0) return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }));
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const k of keys) model[k] = fromSchema(props[k], depth + 1);
      const required = ((s.required ?? []) as string[]).filter((k) => keys.includes(k));
      return fc.record(model, { requiredKeys: required });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** A value of another JSON type than `v`. */
const otherType = (v: unknown): fc.Arbitrary<unknown> =>
  fc
    .oneof(
      fc.constant(null),
      fc.boolean(),
      nastyNumber,
      anyString(),
      fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
      fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
    )
    .filter((x) => typeof x !== typeof v || Array.isArray(x) !== Array.isArray(v) || (x === null) !== (v === null));

const EXTRA_KEYS = ['__proto__', 'constructor', 'prototype', '$where', 'id', 'creatorAddress', 'status', 'isAdmin', ''];

/** A placeholder replaced by raw, deeply nested JSON once serialised (JSON.stringify would overflow the stack). */
export const DEEP = '\u0000DEEP\u0000';
const deepJson = (depth: number, kind: 'object' | 'array') =>
  kind === 'object' ? `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}` : `${'['.repeat(depth)}1${']'.repeat(depth)}`;

export type BodyPlan =
  | { kind: 'json'; value: unknown; deep?: { depth: number; shape: 'object' | 'array' } }
  | { kind: 'raw'; text: string };

/** Mutations of a schema value: the mutation's name and the mutated value. */
export function mutatedBody(schema: JsonSchema | undefined): fc.Arbitrary<{ mutation: string; plan: BodyPlan }> {
  const base = fromSchema(schema);
  const required = ((schema?.required ?? []) as string[]).slice();
  const asObject = (v: unknown): Record<string, unknown> =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? { ...(v as Record<string, unknown>) } : {};
  const keysOf = (v: unknown) => Object.keys(asObject(v));
  const json = (mutation: string, value: unknown) => ({ mutation, plan: { kind: 'json', value } as BodyPlan });

  return fc.oneof(
    { weight: 3, arbitrary: base.map((v) => json('schema', v)) },
    {
      weight: 2,
      arbitrary: fc.tuple(base, fc.constantFrom(...(required.length ? required : ['-']))).map(([v, key]) => {
        const o = asObject(v);
        delete o[key];
        return json(`missing ${key}`, o);
      }),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(base, fc.oneof(fc.constantFrom(...EXTRA_KEYS), fc.string({ maxLength: 12 })), fc.jsonValue())
        .map(([v, key, extra]) => {
          const o = asObject(v);
          Object.defineProperty(o, key, { value: extra, enumerable: true, configurable: true, writable: true });
          return json(`extra ${JSON.stringify(key)}`, o);
        }),
    },
    {
      weight: 3,
      arbitrary: base.chain((v) => {
        const keys = keysOf(v);
        if (keys.length === 0) return otherType(v).map((x) => json('wrong root type', x));
        return fc
          .tuple(fc.constantFrom(...keys), fc.nat())
          .chain(([key]) =>
            otherType(asObject(v)[key]).map((x) => json(`wrong type ${key}`, { ...asObject(v), [key]: x })),
          );
      }),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          base,
          fc.integer({ min: 1_000, max: 80_000 }),
          fc.constantFrom('A', 'é', '🦄', '\u0000', '\\', '"'),
          fc.option(fc.string({ maxLength: 6 }), { nil: undefined }),
        )
        .map(([v, n, ch, at]) => {
          const keys = keysOf(v);
          const key = keys[0] ?? at ?? 'name';
          return json(`huge string ${key} x${n}`, { ...asObject(v), [key]: ch.repeat(n) });
        }),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(base, nastyNumber).map(([v, n]) => {
        const keys = keysOf(v);
        const key = keys[keys.length - 1] ?? 'value';
        return json(`nasty number ${key}`, { ...asObject(v), [key]: n });
      }),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(base, fc.integer({ min: 20, max: 6_000 }), fc.constantFrom('object' as const, 'array' as const))
        .map(([v, depth, shape]) => {
          const keys = keysOf(v);
          const key = keys[0] ?? 'nested';
          return {
            mutation: `deep ${shape} ${depth} at ${key}`,
            plan: { kind: 'json', value: { ...asObject(v), [key]: DEEP }, deep: { depth, shape } } as BodyPlan,
          };
        }),
    },
    { weight: 1, arbitrary: rawBody.map((text) => ({ mutation: 'raw', plan: { kind: 'raw', text } as BodyPlan })) },
  );
}

/** Bodies that are not (valid) JSON objects. */
export const rawBody: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    '{',
    '}',
    '{"a":',
    'null',
    'true',
    '[]',
    '[{}]',
    '"text"',
    '0',
    '1e999',
    '-',
    'undefined',
    "{'name':'x'}",
    '{"name":"x",}',
    '{"name":"x","name":"y"}',
    '\ufeff{}',
    '{"__proto__":{"polluted":1}}',
    '{"constructor":{"prototype":{"polluted":1}}}',
    '{"a":"\\ud800"}',
    '{"a":"\\u0000"}',
    '{"a":1e309}',
    '{"a":-}',
    'name=x&category=AI_TOKENS',
    '<xml/>',
    '\u0000\u0001\u0002',
    deepJson(5_000, 'array'),
    deepJson(5_000, 'object'),
  ),
  anyString(200),
);

/** Serialises a body plan to the exact text that is sent. */
export function serializePlan(plan: BodyPlan): string {
  if (plan.kind === 'raw') return plan.text;
  const text = JSON.stringify(plan.value) ?? 'null';
  if (!plan.deep) return text;
  return text.replace(JSON.stringify(DEEP), deepJson(plan.deep.depth, plan.deep.shape));
}

export const contentType: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 6, arbitrary: fc.constant('application/json') },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      undefined,
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'application/json; charset=latin1',
      'text/plain',
      'text/plain; charset=utf-8',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
      'application/octet-stream',
      'application/vnd.api+json',
      'application/json-patch+json',
      'a/b/c',
      '',
      ';;;',
    ),
  },
);

/** Header-safe garbage (printable ASCII). */
export const headerGarbage: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 120, unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) }),
  fc.constantFrom('', ' ', 'x'.repeat(8_000), 'aie_', `aie_${'A'.repeat(43)}`, `aie_${'-'.repeat(43)}`, 'null'),
);

/** Text for a query or path value given as text: valid from the schema, out of range, wrong type, unicode. */
export function paramText(s: JsonSchema | undefined): fc.Arbitrary<string> {
  const schema = s ?? {};
  const out: fc.Arbitrary<string>[] = [fromSchema(schema).map((v) => (typeof v === 'string' ? v : JSON.stringify(v)))];
  if (typeof schema.minimum === 'number') out.push(fc.constantFrom(String(schema.minimum - 1), String(schema.minimum)));
  if (typeof schema.maximum === 'number') out.push(fc.constantFrom(String(schema.maximum + 1), String(schema.maximum)));
  if (typeof schema.maxLength === 'number') {
    out.push(fc.constantFrom('a'.repeat(schema.maxLength + 1), 'é'.repeat(schema.maxLength + 1)));
  }
  out.push(fc.constantFrom(...WEIRD_NUMBER_TEXT));
  out.push(anyString(30));
  return fc.oneof(...out);
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** encodeURIComponent that never throws: lone surrogates become U+FFFD first. */
export const encode = (text: string) => encodeURIComponent(text.replace(LONE_SURROGATE, '\ufffd'));

/** Percent-encodes, except now and then where the raw (possibly malformed) text is the point. */
export const encodeMaybe = (text: string, raw: boolean) =>
  raw ? text.replace(/[^\x21-\x7e]/g, (c) => encode(c)) : encode(text);

/** Query suffixes that are malformed on their own. */
export const rawQueryJunk = fc.constantFrom(
  '%',
  '%zz',
  '%E0%A4%A',
  '&&&',
  '=',
  '==x',
  'a[b]=c',
  'a[]=1&a[]=2',
  '+',
  ';',
);
