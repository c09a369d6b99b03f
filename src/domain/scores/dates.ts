// Snapshot dates: a snapshot is named by its UTC date (YYYY-MM-DD) and stands for 00:00 UTC of that date.

export const DAY_MS = 86_400_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The UTC date of an instant, as YYYY-MM-DD. */
export const utcDateOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** 00:00 UTC of a date, in milliseconds. */
export const startOfDate = (date: string): number => Date.parse(`${date}T00:00:00.000Z`);

/** 00:00 UTC of a date as the ISO timestamp the Fortune List shows as `epoch`. */
export const epochTimestamp = (date: string): string => new Date(startOfDate(date)).toISOString();

/**
 * The day a snapshot of `date` covers, `[D - 24 h, D)` with D its 00:00 UTC (docs/api/fortune.md "The daily snapshot"): the trades of
 * its volume and trading PnL. Activity looks back 7 days from the same D, and the treasury is read when it is taken.
 */
export const snapshotCovers = (date: string): { from: string; to: string } => {
  const at = startOfDate(date);
  return { from: new Date(at - DAY_MS).toISOString(), to: new Date(at).toISOString() };
};

/** The next 00:00 UTC after an instant (when the next snapshot is taken). */
export const nextMidnight = (ms: number): string => new Date(startOfDate(utcDateOf(ms)) + DAY_MS).toISOString();

/** Whether a YYYY-MM-DD string names a real calendar date (no 2026-02-30, no year 0, which PostgreSQL lacks). */
export function isCalendarDate(value: string): boolean {
  if (!DATE.test(value) || value < '0001-01-01') return false;
  const ms = startOfDate(value);
  return !Number.isNaN(ms) && utcDateOf(ms) === value;
}
