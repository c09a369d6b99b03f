// A JSON value written one way: object keys sorted at every level (by UTF-16 code units), no white space, keys whose
// value is undefined left out (RFC 8785-style for the JSON this platform writes: strings, numbers, booleans, null,
// arrays and objects). Two values the JSON parser reads as the same write the same, whatever their key order.
// The decision hash hashes it (decision-hash.ts: anyone holding a decision can recompute the hash the chain holds),
// and so does the service's Idempotency-Key request fingerprint.

/**
 * The canonical JSON of `value`. A non-finite number throws, unless `nonFinite` is 'null': a parsed request body
 * may hold 1e999 (Infinity), which JSON writes as null, and refusing it is validation's job, not the fingerprint's.
 */
export function canonicalJson(value: unknown, nonFinite: 'throw' | 'null' = 'throw'): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value) && nonFinite === 'throw') {
      throw new Error('canonical JSON has no place for a non-finite number');
    }
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v ?? null, nonFinite)).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v, nonFinite)}`).join(',')}}`;
  }
  if (value === undefined && nonFinite === 'null') return 'null';
  throw new Error(`canonical JSON cannot hold a ${typeof value}`);
}
