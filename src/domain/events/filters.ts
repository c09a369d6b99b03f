// The stream's query: the `types` and `companies` filters and the resume point, checked and resolved once when a
// stream opens. A wrong value answers 400 VALIDATION_ERROR naming it, rather than a stream that stays silent.
import { inArray, or } from 'drizzle-orm';
import { EVENT_TYPES, type EventType, SSE_FILTER_COMPANIES_MAX } from '../../constants.ts';
import type { Tx } from '../../db/client.ts';
import { companies } from '../../db/schema/companies.ts';
import { AppError } from '../../errors.ts';

const invalid = (path: string, message: string) =>
  new AppError('VALIDATION_ERROR', `${path} ${message}`, { details: [{ path, message }] });

/** Comma-separated entries, trimmed, blanks and repeats dropped; undefined when none is given. */
function entries(raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const list = [...new Set(raw.split(',').map((s) => s.trim()))].filter((s) => s !== '');
  return list.length === 0 ? undefined : list;
}

/** The `types` filter; undefined means every type. */
export function parseEventTypes(raw: string | undefined): Set<EventType> | undefined {
  const list = entries(raw);
  if (!list) return undefined;
  const unknown = list.filter((t) => !(EVENT_TYPES as readonly string[]).includes(t));
  if (unknown.length > 0) {
    throw invalid(
      'query.types',
      `has unknown event type${unknown.length > 1 ? 's' : ''} ${unknown.map((t) => `"${t}"`).join(', ')}: each must be one of ${EVENT_TYPES.join(', ')}`,
    );
  }
  return new Set(list as EventType[]);
}

/** The `companies` filter as given (slugs or ids); undefined means every company. */
export function parseCompanyRefs(raw: string | undefined): string[] | undefined {
  const list = entries(raw);
  if (!list) return undefined;
  if (list.length > SSE_FILTER_COMPANIES_MAX) {
    throw invalid('query.companies', `must name at most ${SSE_FILTER_COMPANIES_MAX} companies, got ${list.length}`);
  }
  return list;
}

/** Company ids of the filter's slugs and ids, in one query; any entry that names no company is refused. */
export async function resolveCompanyRefs(db: Tx, refs: readonly string[]): Promise<Set<string>> {
  const rows = await db
    .select({ id: companies.id, slug: companies.slug })
    .from(companies)
    .where(or(inArray(companies.id, [...refs]), inArray(companies.slug, [...refs])));
  const wanted = new Set(refs);
  // An entry that is some company's id means that company, never another whose slug happens to equal it.
  const ids = new Set(rows.filter((r) => wanted.has(r.id)).map((r) => r.id));
  const chosen = rows.filter((r) => ids.has(r.id) || (wanted.has(r.slug) && !ids.has(r.slug)));
  const known = new Set<string>();
  for (const r of chosen) known.add(r.id).add(r.slug);
  const unknown = refs.filter((r) => !known.has(r));
  if (unknown.length > 0) {
    throw invalid(
      'query.companies',
      `names no company: ${unknown.map((r) => `"${r}"`).join(', ')} (give company slugs or ids, comma-separated)`,
    );
  }
  return new Set(chosen.map((r) => r.id));
}

/** Largest id a client may resume after: 18 digits stay below PostgreSQL's bigint limit. */
export const EVENT_ID_PATTERN = '^(0|[1-9][0-9]{0,17})$';
const EVENT_ID = new RegExp(EVENT_ID_PATTERN);

/** The resume point: the `Last-Event-ID` header, else the `lastEventId` query parameter. */
export function parseLastEventId(header: string | undefined, query: string | undefined): bigint | undefined {
  const [path, raw] = header !== undefined ? ['headers.last-event-id', header] : ['query.lastEventId', query];
  if (raw === undefined || raw.trim() === '') return undefined;
  if (!EVENT_ID.test(raw.trim())) throw invalid(path, 'must be the id of an event: a decimal number');
  return BigInt(raw.trim());
}
