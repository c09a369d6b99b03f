// Text PostgreSQL can store. A text or jsonb column refuses NUL and UTF-16 surrogates without their pair; input of the
// API is refused for holding them (src/http/validation.ts), and text from outside the platform that it stores anyway
// (revert data, RPC messages, model output) is made storable here, in one place, and bounded in length.

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');
/** C0 control characters other than tab, line feed and carriage return: NUL, and bytes that are noise in a message. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is this pattern's purpose.
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g;

/** Characters a stored message from outside keeps at most. */
export const STORED_TEXT_MAX = 1000;

/** NUL, or a surrogate without its pair: text no PostgreSQL text or jsonb column can store. */
export function isUnstorableText(text: string): boolean {
  return text.includes('\u0000') || LONE_SURROGATE.test(text);
}

/**
 * Outside text made storable: control characters (NUL included) removed, each unpaired surrogate replaced by U+FFFD,
 * and cut to `max` characters (never inside a surrogate pair) with an ellipsis.
 */
export function storableText(text: string, max = STORED_TEXT_MAX): string {
  const clean = text.replace(CONTROLS, '').replace(LONE_SURROGATES, '\ufffd');
  if (clean.length <= max) return clean;
  let end = max - 1;
  if (/[\ud800-\udbff]/.test(clean[end - 1] ?? '')) end -= 1;
  return `${clean.slice(0, end)}…`;
}

/** A JSON value from outside (a model's answer) with every string in it, keys included, made storable (unbounded). */
export function storableJson<T>(value: T): T {
  if (typeof value === 'string') return storableText(value, Number.POSITIVE_INFINITY) as T;
  if (Array.isArray(value)) return value.map((v) => storableJson(v)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [storableText(k, Number.POSITIVE_INFINITY), storableJson(v)]),
    ) as T;
  }
  return value;
}
