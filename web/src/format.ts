// How the app writes numbers, amounts and addresses: exact decimal strings of base-unit amounts (bigint, never a
// float) written with the reader's own grouping and decimal separators (Intl.NumberFormat formats a decimal string
// exactly, digit for digit), a token's symbol after its amount, and short addresses and hashes. Numbers follow the
// browser's locale, as dates do: `1,234.5` in English, `1.234,5` in German.
import { formatUnits } from 'viem';

/** A token as an amount names it. */
export interface Unit {
  symbol: string;
  decimals: number;
}

export const USDC: Unit = { symbol: 'USDC', decimals: 6 };

export const short = (address: string) => `${address.slice(0, 6)}…${address.slice(-4)}`;

/** Intl's formatters are costly to build: one per locale and option set. */
const formatters = new Map<string, Intl.NumberFormat>();
function numberFormat(locale: string | undefined, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale ?? ''}|${JSON.stringify(options)}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, options);
    formatters.set(key, f);
  }
  return f;
}

// `format` takes a decimal string and formats it exactly (ECMA-402 "Intl.NumberFormat v3"); TypeScript's lib types
// it for numbers and bigints only.
type DecimalString = `${number}`;
const asDecimal = (s: string) => s as DecimalString as unknown as number;

/**
 * A plain decimal string (`-1234.5678`, as the API sends money) in the reader's locale, exactly: at most `places`
 * decimals, cut (never rounded up, so a balance is never shown larger than it is), except that an amount below one
 * keeps its first two significant digits rather than showing 0. `undefined` when `value` is not a decimal string.
 */
export function formatDecimal(value: string, places = 6, locale?: string): string | undefined {
  const m = /^(-)?(\d+)(?:\.(\d+))?$/.exec(value.trim());
  if (!m) return undefined;
  const [, sign = '', whole = '0', fraction = ''] = m;
  const firstDigit = fraction.search(/[1-9]/);
  const keep = /^0+$/.test(whole) && firstDigit >= places ? firstDigit + 2 : places;
  const cut = fraction.slice(0, keep).replace(/0+$/, '');
  const zero = /^0+$/.test(whole) && cut === '';
  const exact = `${zero ? '' : sign}${whole}${cut ? `.${cut}` : ''}`;
  return numberFormat(locale, { maximumFractionDigits: Math.min(100, Math.max(cut.length, 0)) }).format(
    asDecimal(exact),
  );
}

/** A base-unit amount as a decimal in the reader's locale, exact (see formatDecimal). */
export function formatAmount(value: bigint, decimals: number, places = 6, locale?: string): string {
  return formatDecimal(formatUnits(value, decimals), places, locale)!;
}

/** An amount in a unit with its symbol: `1,234.5 USDC`. */
export function amountOf(value: bigint, unit: Unit, places = 6, locale?: string): string {
  return `${formatAmount(value, unit.decimals, places, locale)} ${unit.symbol}`;
}

/**
 * Money as the API sends it (a decimal string, or a number for a few score fields), with at most `places` decimals
 * (six for an amount below 0.01) and the reader's separators. A string is formatted digit for digit, never through a
 * float; `—` when there is no value.
 */
export function money(value: string | number | null | undefined, places = 2, locale?: string): string {
  if (value === null || value === undefined || value === '') return '—';
  const text = typeof value === 'number' ? decimalOfNumber(value) : value.trim();
  if (text === undefined || !/^-?\d+(\.\d+)?$/.test(text)) return String(value);
  const small = /^-?0+\.00/.test(text) && /[1-9]/.test(text);
  return numberFormat(locale, { maximumFractionDigits: small ? 6 : places, signDisplay: 'negative' }).format(
    asDecimal(text),
  );
}

/** A finite number as a plain decimal string (no exponent), or undefined. */
function decimalOfNumber(n: number): string | undefined {
  if (!Number.isFinite(n)) return undefined;
  return n.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 });
}

/** A plain number (a score, a count, a percentage) in the reader's locale with at most `places` decimals. */
export function formatNumber(n: number, places = 2, locale?: string, minPlaces = 0): string {
  return numberFormat(locale, {
    maximumFractionDigits: places,
    minimumFractionDigits: Math.min(minPlaces, places),
  }).format(n);
}

/**
 * A signed percentage change, `+12.5%` or `−3.25%` (the minus sign, U+2212), `0%` for no change and `—` for none:
 * the sign says the direction, so colour is never the only cue.
 */
export function signedPercent(n: number | null | undefined, locale?: string): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '—';
  const body = numberFormat(locale, { maximumFractionDigits: 2, minimumFractionDigits: 2 }).format(Math.abs(n));
  if (n > 0) return `+${body}%`;
  if (n < 0) return `\u2212${body}%`;
  return `${body}%`;
}

/** Seconds as the age of something: `45 s`, `12 min`, `5 h`, `3 d`. */
export function age(seconds: number): string {
  if (seconds < 60) return `${Math.max(0, Math.floor(seconds))} s`;
  if (seconds < 3_600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3_600)} h`;
  return `${Math.floor(seconds / 86_400)} d`;
}

/** A UTC day (`2026-11-25`, or an ISO time at its midnight) in the reader's locale: `Wednesday, November 25, 2026`. */
export function utcDay(iso: string, locale?: string): string {
  const ms = Date.parse(iso.length === 10 ? `${iso}T00:00:00Z` : iso);
  return new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeZone: 'UTC' }).format(ms);
}

/**
 * The day a daily snapshot scored, named the one way every page names it: the snapshot dated D (its 00:00 UTC)
 * covers the UTC day before it, so `2026-11-26` reads "Scores of Wednesday, November 25, 2026 (UTC)".
 */
export function snapshotName(snapshotDate: string, locale?: string): string {
  const covered = new Date(Date.parse(`${snapshotDate.slice(0, 10)}T00:00:00Z`) - 86_400_000).toISOString();
  return `Scores of ${utcDay(covered.slice(0, 10), locale)} (UTC)`;
}

/** A company's status in words: where it is between its card's binding and its token's launch. */
export const COMPANY_STATUS_WORDS: Record<string, string> = {
  INCORPORATING: 'Incorporating: bound to its card, its C-suite not yet deployed',
  HIRING: 'Hiring: its C-suite agents are being deployed',
  PRIVATE: 'Private: staffed and running, no token launched yet',
  PUBLIC: 'Public: its token is launched and trades',
};
/** The status in words, or the status itself when it is one this app does not know. */
export const companyStatus = (status: string) => COMPANY_STATUS_WORDS[status] ?? status;

/** At most `max` characters, cut at the last word boundary before it with "…" (never mid-word). */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.search(/\s\S*$/);
  return `${(space > 0 ? cut.slice(0, space) : cut).replace(/[\s,;:.–-]+$/, '')}…`;
}
