// Tool arguments the built-in model writes: each required property of the tool's JSON schema gets a value that
// fits both the schema (type, enum, bounds, pattern, format) and the company's situation, and the result is
// checked against the schema with ajv before it is proposed.
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { Role, ToolSpec } from '../types.ts';
import { categoryLabel, modestSpend, type Situation, stableSeed, usd } from './situation.ts';

type Schema = Record<string, unknown>;

// ajv and ajv-formats are CommonJS: their default import is the module itself (as in src/http/validation.ts).
const ajv = new (Ajv as unknown as typeof Ajv.default)({ strict: false, allErrors: false, validateSchema: false });
(addFormats as unknown as (a: unknown) => void)(ajv);
const compiled = new Map<string, ValidateFunction | null>();
const COMPILED_MAX = 500;

/** The schema's validator, or null when the schema itself cannot be compiled. Cached by the schema's text. */
function validatorOf(schema: Schema): ValidateFunction | null {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (validate === undefined) {
    try {
      validate = ajv.compile(schema);
    } catch {
      validate = null;
    }
    if (compiled.size >= COMPILED_MAX) compiled.clear();
    compiled.set(key, validate);
  }
  return validate;
}

export function argsFit(tool: ToolSpec, args: unknown): boolean {
  const validate = validatorOf(tool.parameters);
  return validate !== null && validate(args) === true;
}

/** What a value is for, beyond its schema: the tool, the role using it and the situation. */
export interface ArgHints {
  situation: Situation;
  role: Role;
  tool: ToolSpec;
}

const norm = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');
const has = (name: string, ...words: string[]) => words.some((w) => norm(name).includes(w));

function hexOf(seedText: string, chars: number): string {
  let out = '';
  for (let i = 0; out.length < chars; i++) out += stableSeed(`${seedText}:${i}`).toString(16).padStart(8, '0');
  return `0x${out.slice(0, chars)}`;
}

/** The text a role writes into a message-like argument: an update a CMO would publish, a note otherwise. */
export function messageFor(h: ArgHints): string {
  const s = h.situation;
  const name = s.context.company.name;
  if (h.role !== 'CMO' && !has(h.tool.name, 'publish', 'post', 'announce', 'tweet', 'broadcast')) {
    return `${h.role} note for ${name}, cycle ${s.context.cycle}: ${s.focus.replace(/-/g, ' ')}.`;
  }
  switch (s.stage) {
    case 'no-token':
      return `${name} is building in ${categoryLabel(s)}: the team is in place and the ${s.symbol} launch is being prepared. Follow along for the launch date.`;
    case 'near-graduation':
      return s.toGraduation === null
        ? `${s.symbol} is ${Math.round(s.progress)}% of the way to graduation. Once it crosses, liquidity moves into a Uniswap v4 pool for good.`
        : `${s.symbol} is ${Math.round(s.progress)}% of the way to graduation: about ${usd(s.toGraduation)} USDC of market cap to go before liquidity moves into a Uniswap v4 pool for good.`;
    case 'graduated':
      return `${s.symbol} trades in its Uniswap v4 pool: ${usd(s.volume)} USDC of volume in the last 24 h. Cycle ${s.context.cycle} of ${name} is under way.`;
    default:
      return `${s.symbol} is live on its bonding curve at ${Math.round(s.progress)}% of graduation. Here is what ${name} is shipping this cycle.`;
  }
}

function titleFor(h: ArgHints): string {
  const s = h.situation;
  switch (s.stage) {
    case 'no-token':
      return `${s.context.company.name}: launch preparations`;
    case 'near-graduation':
      return `${s.symbol} nears graduation`;
    case 'graduated':
      return `${s.symbol} in its v4 pool`;
    default:
      return `${s.symbol} cycle ${s.context.cycle} update`;
  }
}

/** Candidate strings for a property, best first; the first that fits the schema's constraints wins. */
function stringCandidates(name: string, schema: Schema, h: ArgHints): string[] {
  const s = h.situation;
  const c = s.context;
  const format = typeof schema.format === 'string' ? schema.format : undefined;
  const address = hexOf(`address:${c.company.id}:${name}`, 40);
  const list: string[] = [];
  if (format === 'uri' || format === 'url' || has(name, 'url', 'uri', 'link', 'website')) {
    list.push(`https://www.coingecko.com/en/categories/${c.company.category.toLowerCase().replace(/_/g, '-')}`);
  }
  if (format === 'date-time') list.push('2025-01-01T00:00:00Z');
  if (format === 'date') list.push('2025-01-01');
  if (format === 'email') list.push(`ops@${c.company.slug}.example`);
  if (format === 'uuid') list.push('00000000-0000-4000-8000-000000000000');
  if (has(name, 'symbol', 'ticker')) list.push(s.symbol);
  if (has(name, 'agentid')) list.push(c.agents.find((a) => a.role === h.role)?.id ?? c.agents[0]?.id ?? c.company.id);
  if (has(name, 'companyid') || norm(name) === 'id' || norm(name) === 'company') list.push(c.company.id);
  if (has(name, 'slug')) list.push(c.company.slug);
  if (has(name, 'txhash', 'hash')) list.push(hexOf(`hash:${c.company.id}:${name}`, 64));
  if (has(name, 'address', 'wallet', 'recipient', 'contract', 'account')) list.push(address);
  if (has(name, 'message', 'text', 'content', 'body', 'post', 'tweet', 'announcement', 'update', 'copy')) {
    list.push(messageFor(h));
  }
  if (has(name, 'title', 'headline', 'subject')) list.push(titleFor(h));
  if (has(name, 'query', 'search', 'keyword', 'topic', 'q')) list.push(`${categoryLabel(s)} ${s.symbol} market`);
  if (has(name, 'reason', 'rationale', 'note', 'description', 'summary', 'comment')) {
    list.push(`${h.role}: ${s.focus.replace(/-/g, ' ')} (cycle ${c.cycle}).`);
  }
  if (has(name, 'period', 'window', 'timeframe', 'range', 'interval', 'duration')) list.push('24h');
  if (has(name, 'side', 'direction')) list.push('buy');
  if (has(name, 'currency', 'asset', 'denom')) list.push('USDC');
  if (has(name, 'chain', 'network')) list.push('base');
  if (has(name, 'role')) list.push(h.role);
  if (has(name, 'amount', 'value', 'quantity', 'size', 'budget', 'spend')) list.push(`${modestSpend(s)}.00`);
  if (has(name, 'name')) list.push(c.company.name);
  if (has(name, 'token')) list.push(s.symbol);
  list.push(
    // Fallbacks for a pattern the name did not anticipate.
    `${c.company.name} ${h.role}`,
    c.company.slug,
    s.symbol,
    address,
    hexOf(`hash:${c.company.id}:${name}`, 64),
    c.company.id,
    'USDC',
    String(c.cycle),
  );
  return list;
}

function fitString(value: string, schema: Schema): string | undefined {
  let v = value;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : undefined;
  const min = typeof schema.minLength === 'number' ? schema.minLength : undefined;
  if (max !== undefined && [...v].length > max) {
    const cut = [...v].slice(0, max).join('');
    const space = cut.lastIndexOf(' ');
    v = space > max * 0.6 ? cut.slice(0, space).replace(/[\s,;:]+$/, '') : cut;
  }
  if (min !== undefined && [...v].length < min) v = v.padEnd(min, '.');
  if (typeof schema.pattern === 'string') {
    try {
      if (!new RegExp(schema.pattern, 'u').test(v)) return undefined;
    } catch {
      return undefined;
    }
  }
  return v;
}

/** A candidate and its respellings, for patterns that want one case or no punctuation. */
function variants(value: string): string[] {
  const bare = value.replace(/[^A-Za-z0-9]/g, '');
  return [value, value.toLowerCase(), value.toUpperCase(), bare, bare.toLowerCase(), bare.toUpperCase()];
}

function stringFor(name: string, schema: Schema, h: ArgHints): string {
  const candidates = stringCandidates(name, schema, h);
  for (const candidate of candidates) {
    for (const variant of typeof schema.pattern === 'string' ? variants(candidate) : [candidate]) {
      const fitted = fitString(variant, schema);
      if (fitted !== undefined) return fitted;
    }
  }
  return candidates[0]!;
}

function numberFor(name: string, schema: Schema, integer: boolean, h: ArgHints): number {
  const s = h.situation;
  let v: number;
  if (has(name, 'limit', 'count', 'top', 'max', 'results', 'pagesize')) v = 10;
  else if (has(name, 'page')) v = 1;
  else if (has(name, 'offset', 'skip')) v = 0;
  else if (has(name, 'hours')) v = 24;
  else if (has(name, 'days')) v = 7;
  else if (has(name, 'minutes')) v = 60;
  else if (has(name, 'blocks', 'lookback')) v = 100;
  else if (has(name, 'bps')) v = 50;
  else if (has(name, 'slippage')) v = 1;
  else if (has(name, 'cycle')) v = s.context.cycle;
  else if (has(name, 'amount', 'value', 'quantity', 'size', 'budget', 'spend', 'usdc')) v = modestSpend(s);
  else if (has(name, 'percent', 'pct', 'share', 'ratio', 'fraction')) v = 5;
  else v = 1;
  const min = typeof schema.minimum === 'number' ? schema.minimum : undefined;
  const max = typeof schema.maximum === 'number' ? schema.maximum : undefined;
  const exMin = typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum : undefined;
  const exMax = typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum : undefined;
  // A ratio bounded by 1 wants a fraction, not a percentage.
  if (has(name, 'percent', 'pct', 'share', 'ratio', 'fraction') && (max ?? exMax ?? 100) <= 1) v = 0.05;
  const step = integer ? 1 : Number.EPSILON;
  if (min !== undefined && v < min) v = min;
  if (exMin !== undefined && v <= exMin)
    v = integer ? Math.floor(exMin) + 1 : exMin + Math.max(step, Math.abs(exMin) * 1e-9);
  if (max !== undefined && v > max) v = max;
  if (exMax !== undefined && v >= exMax)
    v = integer ? Math.ceil(exMax) - 1 : exMax - Math.max(step, Math.abs(exMax) * 1e-9);
  if (integer) v = Math.round(v);
  const multipleOf = typeof schema.multipleOf === 'number' && schema.multipleOf > 0 ? schema.multipleOf : undefined;
  if (multipleOf !== undefined) {
    const k = Math.round(v / multipleOf);
    const floor = min ?? exMin ?? Number.NEGATIVE_INFINITY;
    v = k * multipleOf < floor ? (k + 1) * multipleOf : k * multipleOf;
  }
  return v;
}

const PREFERRED_ENUM = ['24h', '1d', 'day', 'usdc', 'summary', 'latest', 'base'];

/** The role a tool acting on an agent should target this round: the one the focus leans on most. */
function targetRole(s: Situation): Role {
  switch (s.focus) {
    case 'push-graduation':
    case 'build-volume':
      return 'CMO';
    case 'grow-after-graduation':
      return 'CRO';
    case 'prepare-launch':
      return 'CSO';
    default:
      return 'CFO';
  }
}

/** A strategy preset that suits the situation: careful when cash is short, bold when a goal is in reach. */
function presetFor(s: Situation): string {
  if (s.treasuryLevel === 'low' || s.treasuryLevel === 'unknown') return 'conservative';
  if (s.stage === 'near-graduation' || s.treasuryLevel === 'strong') return 'aggressive';
  return 'balanced';
}

function enumChoice(values: readonly unknown[], name: string, h: ArgHints): unknown {
  const lowered = values.map((v) => (typeof v === 'string' ? v.toLowerCase() : v));
  if (has(name, 'role')) {
    const onAgent = has(h.tool.name, 'agent', 'strategy', 'assign', 'hire');
    const want = (onAgent ? targetRole(h.situation) : h.role).toLowerCase();
    if (lowered.includes(want)) return values[lowered.indexOf(want)];
  }
  if (has(name, 'preset', 'strategy', 'mode', 'stance')) {
    const i = lowered.indexOf(presetFor(h.situation));
    if (i >= 0) return values[i];
  }
  for (const want of PREFERRED_ENUM) {
    const i = lowered.indexOf(want);
    if (i >= 0) return values[i];
  }
  return values[0];
}

function typeOf(schema: Schema): string | undefined {
  const t = schema.type;
  if (typeof t === 'string') return t;
  if (Array.isArray(t)) return (t.find((x) => x !== 'null') ?? t[0]) as string | undefined;
  if (schema.properties || schema.required) return 'object';
  if (schema.items) return 'array';
  return undefined;
}

/** A value for one property, fitting its schema. */
export function valueFor(name: string, raw: unknown, h: ArgHints, depth = 0): unknown {
  const schema: Schema = raw && typeof raw === 'object' ? (raw as Schema) : {};
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return enumChoice(schema.enum, name, h);
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches) && branches.length > 0) {
      const branch = branches.find((b) => (b as Schema)?.type !== 'null') ?? branches[0];
      return valueFor(name, { ...schema, [key]: undefined, ...(branch as Schema) }, h, depth);
    }
  }
  if (Array.isArray(schema.allOf)) {
    const merged: Schema = { ...schema, allOf: undefined };
    for (const part of schema.allOf as Schema[]) {
      Object.assign(merged, part, {
        properties: { ...(merged.properties as Schema), ...(part.properties as Schema) },
        required: [...((merged.required as string[]) ?? []), ...((part.required as string[]) ?? [])],
      });
    }
    return valueFor(name, merged, h, depth);
  }
  switch (typeOf(schema)) {
    case 'object':
      return depth > 6 ? {} : objectFor(schema, h, depth + 1);
    case 'array': {
      const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
      const max = typeof schema.maxItems === 'number' ? schema.maxItems : Number.POSITIVE_INFINITY;
      const n = Math.min(max, Math.max(min, 1));
      const items = (Array.isArray(schema.items) ? schema.items[0] : schema.items) ?? {};
      const enumValues = (items as Schema).enum;
      if (schema.uniqueItems === true && Array.isArray(enumValues)) return enumValues.slice(0, n);
      const one = valueFor(singular(name), items, h, depth + 1);
      return Array.from({ length: n }, (_, i) =>
        schema.uniqueItems === true && typeof one === 'number'
          ? one + i
          : schema.uniqueItems && i > 0
            ? `${one}-${i + 1}`
            : one,
      );
    }
    case 'integer':
      return numberFor(name, schema, true, h);
    case 'number':
      return numberFor(name, schema, false, h);
    case 'boolean':
      return has(name, 'dryrun', 'simulate', 'preview', 'readonly');
    case 'null':
      return null;
    default:
      return stringFor(name, schema, h);
  }
}

function singular(name: string): string {
  return name.endsWith('ies') ? `${name.slice(0, -3)}y` : name.endsWith('s') ? name.slice(0, -1) : name;
}

function objectFor(schema: Schema, h: ArgHints, depth: number): Record<string, unknown> {
  const properties = (schema.properties && typeof schema.properties === 'object' ? schema.properties : {}) as Schema;
  const required = Array.isArray(schema.required)
    ? (schema.required as unknown[]).filter((r) => typeof r === 'string')
    : [];
  const out: Record<string, unknown> = {};
  for (const key of required as string[]) out[key] = valueFor(key, properties[key], h, depth);
  return out;
}

/** Arguments for a tool from its schema's required properties; undefined when none fit the schema. */
export function argsFor(h: ArgHints): Record<string, unknown> | undefined {
  const args = objectFor(h.tool.parameters ?? {}, h, 0);
  return argsFit(h.tool, args) ? args : undefined;
}
