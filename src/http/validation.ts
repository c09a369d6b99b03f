// Request validation. Bodies are JSON and keep their types: no coercion, so `"5"` is not a number and `5` is
// not a string. Query strings, path parameters and headers arrive as text: a scalar field accepts only its
// canonical spelling (decimal digits for integers, true/false for booleans), never `1e3`, `0x10`, ` 5` or
// Infinity, and a key given twice stays an array, which no scalar field accepts. Query strings: a parameter no route
// declares is ignored and dropped before the handler (cache busters such as `_=1732590000` pass), and every invalid
// parameter is named at once (docs/decisions.md "Requests and errors").
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { ADDRESS_FORMAT, parseAddress } from '../address.ts';
import { validationError } from '../errors.ts';
import { isUnstorableText } from '../text.ts';

const INTEGER = /^-?(0|[1-9][0-9]{0,15})$/;
const NUMBER = /^-?(0|[1-9][0-9]{0,15})(\.[0-9]{1,18})?$/;

type Kind = 'integer' | 'number' | 'boolean';

function scalarKinds(schema: unknown): Map<string, Kind> {
  const kinds = new Map<string, Kind>();
  const props = (schema as { properties?: Record<string, { type?: unknown }> })?.properties ?? {};
  for (const [key, prop] of Object.entries(props)) {
    if (prop.type === 'integer' || prop.type === 'number' || prop.type === 'boolean') kinds.set(key, prop.type);
  }
  return kinds;
}

function coerce(value: string, kind: Kind): unknown {
  if (kind === 'boolean') return value === 'true' ? true : value === 'false' ? false : value;
  const pattern = kind === 'integer' ? INTEGER : NUMBER;
  return pattern.test(value) ? Number(value) : value;
}

function newAjv(options: { allErrors: boolean; removeAdditional: false | 'all' }) {
  const ajv = new (Ajv as unknown as typeof Ajv.default)({
    coerceTypes: false,
    useDefaults: true,
    strict: false,
    ...options,
  });
  (addFormats as unknown as (a: unknown) => void)(ajv);
  ajv.addFormat(ADDRESS_FORMAT, { type: 'string', validate: (value: string) => parseAddress(value).ok });
  return ajv;
}

// One Ajv of each kind a process: Ajv keeps what it compiled by schema object, and the route schemas are module
// constants, so a process that builds the app more than once (the test workers build about a hundred) compiles
// each schema once.
const ajvs = new Map<string, ReturnType<typeof newAjv>>();
function sharedAjv(kind: 'firstError' | 'allErrors' | 'query') {
  let ajv = ajvs.get(kind);
  if (!ajv) {
    ajv =
      kind === 'query'
        ? newAjv({ allErrors: true, removeAdditional: 'all' })
        : newAjv({ allErrors: kind === 'allErrors', removeAdditional: false });
    ajvs.set(kind, ajv);
  }
  return ajv;
}

/**
 * The request validator. `allErrors` reports every violation of a body at once (a form's fields all marked in one
 * answer) instead of the first; the answer lists at most VALIDATION_DETAILS_MAX of them (src/http/errors.ts), and the
 * body limit bounds the work. Query strings always get every violation (a handful of declared parameters, so the
 * work is bounded by the schema), and their undeclared parameters are removed rather than refused: unknown body
 * fields answer 400, unknown query parameters are ignored.
 */
export function createValidatorCompiler({ allErrors = false } = {}): FastifySchemaCompiler<unknown> {
  const ajv = sharedAjv(allErrors ? 'allErrors' : 'firstError');
  const queryAjv = sharedAjv('query');
  return ({ schema, httpPart }) => {
    const validate = (httpPart === 'querystring' ? queryAjv : ajv).compile(schema as object) as ValidateFunction;
    if (httpPart === 'body') return validate;
    const kinds = scalarKinds(schema);
    const wrapped = ((data: Record<string, unknown> | null) => {
      if (data && typeof data === 'object') {
        for (const [key, kind] of kinds) {
          const v = data[key];
          if (typeof v === 'string') data[key] = coerce(v, kind);
        }
      }
      const ok = validate(data);
      wrapped.errors = validate.errors as ErrorObject[] | null | undefined;
      return ok;
    }) as ((data: unknown) => boolean) & { errors?: ErrorObject[] | null | undefined };
    return wrapped;
  };
}

/**
 * Throws 400 VALIDATION_ERROR naming the first string (key or value, at any depth) of the request's params, query
 * or body that holds text PostgreSQL cannot store. Walks with an explicit stack, so deep nesting cannot overflow.
 */
export function rejectUnstorableText(parts: Record<string, unknown>): void {
  const stack: [unknown, string][] = Object.entries(parts).map(([k, v]) => [v, k]);
  while (stack.length > 0) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'string') {
      if (isUnstorableText(value)) throw unstorable(path);
    } else if (Array.isArray(value)) {
      for (const [i, v] of value.entries()) stack.push([v, `${path}/${i}`]);
    } else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        if (isUnstorableText(k)) throw unstorable(path);
        stack.push([v, `${path}/${k}`]);
      }
    }
  }
}

const unstorable = (path: string) =>
  validationError(path, 'must not contain NUL characters or unpaired UTF-16 surrogates');
