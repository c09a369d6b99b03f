// The `total` of a paged list (agents, v1 tokens, v1 Fortune List). A count(*) over the filtered rows costs far
// more than the page itself (20 ms for 70,000 agents against 0.1 ms), so:
// - when the page itself shows the total (a page that is not full, or an empty first page), that is the total;
// - otherwise the count, which createPageTotals keeps per filter for a short time (PAGE_TOTAL_MAX_AGE_MS) as long as
//   it agrees with the page (a full page needs total >= offset + limit; an empty later page total <= offset).

/** What one page read shows about the total. */
export interface PageFacts {
  offset: number;
  limit: number;
  /** Rows the page read returned. */
  rows: number;
  /**
   * The page starts after a cursor, at an offset from it that says nothing of its place in the whole list: the page
   * then decides nothing about the total (a last page of 2 rows after a cursor is not a list of 2).
   */
  afterCursor?: boolean;
}

/** The total of the list `key` (the filter, not the page), given what the page showed and how to count. */
export type PageTotal = (key: string, page: PageFacts, count: () => Promise<number>) => Promise<number>;

/** How long a counted total is served again for the same filter. */
export const PAGE_TOTAL_MAX_AGE_MS = 3000;
/** Filters whose counts are kept at most (creator filters are unbounded); the oldest go first. */
const MAX_KEYS = 2000;

/** The total when the page alone decides it. */
export function totalFromPage(page: PageFacts): number | undefined {
  if (page.afterCursor) return undefined;
  if (page.rows > 0 && page.rows < page.limit) return page.offset + page.rows;
  if (page.rows === 0 && page.offset === 0) return 0;
  return undefined;
}

function agrees(total: number, page: PageFacts): boolean {
  if (page.afterCursor) return total >= page.rows;
  if (page.rows >= page.limit) return total >= page.offset + page.rows;
  if (page.rows === 0) return total <= page.offset;
  return total === page.offset + page.rows;
}

/** Counts every time the page does not decide: the exact total, at the price of a count. */
export const countEachTime: PageTotal = async (_key, page, count) => totalFromPage(page) ?? count();

/** Counts at most once per filter every `maxAgeMs` (while the pages agree); concurrent counts of a filter share one. */
export function createPageTotals(options: { maxAgeMs?: number; now?: () => number; maxKeys?: number } = {}): PageTotal {
  const maxAgeMs = options.maxAgeMs ?? PAGE_TOTAL_MAX_AGE_MS;
  const now = options.now ?? (() => performance.now());
  const maxKeys = options.maxKeys ?? MAX_KEYS;
  const known = new Map<string, { total: number; at: number }>();
  const counting = new Map<string, Promise<number>>();

  const remember = (key: string, total: number, at: number) => {
    known.delete(key);
    if (known.size >= maxKeys) known.delete(known.keys().next().value as string);
    known.set(key, { total, at });
  };

  return async (key, page, count) => {
    const exact = totalFromPage(page);
    if (exact !== undefined) {
      remember(key, exact, now());
      return exact;
    }
    const hit = known.get(key);
    if (hit !== undefined && now() - hit.at < maxAgeMs && agrees(hit.total, page)) return hit.total;
    let running = counting.get(key);
    if (running === undefined) {
      const started = now();
      running = count().then(
        (total) => {
          counting.delete(key);
          remember(key, total, started);
          return total;
        },
        (err: unknown) => {
          counting.delete(key);
          throw err;
        },
      );
      counting.set(key, running);
    }
    return running;
  };
}
