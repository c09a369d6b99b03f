// Success envelopes of SPEC.md: internal `{ success, data }`, v1 `{ data, meta }` with `pagination` on lists.

export const ok = <T>(data: T) => ({ success: true as const, data });

export const meta = () => ({ timestamp: new Date().toISOString() });

export const v1 = <T>(data: T) => ({ data, meta: meta() });

export function v1Page<T>(data: T[], page: number, limit: number, total: number) {
  return { data, pagination: { page, limit, total, hasMore: page * limit < total }, meta: meta() };
}
