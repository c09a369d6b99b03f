// The trade form's fields, checked as they are typed, each with its message: amounts in the reader's own decimal
// separator (1,5 or 1.5), the slippage (0.05% to 50%, with a warning outside 0.1% to 5%) and the deadline (1 to 60
// minutes). A check gives a value or a sentence, never NaN.
import { parseUnits } from 'viem';
import { formatAmount, type Unit } from '../format.ts';

export type Checked<T> = { ok: true; value: T; warning?: string } | { ok: false; error: string };

export const SLIPPAGE_MIN = 0.05;
export const SLIPPAGE_MAX = 50;
export const DEADLINE_MIN = 1;
export const DEADLINE_MAX = 60;

/** The decimal and grouping separators of the reader's locale. */
export function separatorsOf(locale?: string): { decimal: string; group: string } {
  const parts = new Intl.NumberFormat(locale).formatToParts(12345.6);
  return {
    decimal: parts.find((p) => p.type === 'decimal')?.value ?? '.',
    group: parts.find((p) => p.type === 'group')?.value ?? ',',
  };
}

/**
 * A typed number as a plain decimal string ("1234.5"), or undefined when it is not one. Either `.` or `,` may be the
 * decimal separator: with both present the last is; a lone one is the decimal separator unless it is the locale's
 * grouping separator followed by exactly three digits ("1,000" in English, "1.000" in German).
 */
export function normalizeNumber(text: string, locale?: string): string | undefined {
  const compact = text.trim().replace(/[\s\u00a0\u202f']/g, '');
  if (!/^[0-9]*[.,]?[0-9.,]*$/.test(compact) || !/[0-9]/.test(compact)) return undefined;
  const dots = compact.split('.').length - 1;
  const commas = compact.split(',').length - 1;
  let decimal: string | undefined;
  if (dots > 0 && commas > 0) decimal = compact.lastIndexOf('.') > compact.lastIndexOf(',') ? '.' : ',';
  else if (dots + commas === 1) {
    const sep = dots ? '.' : ',';
    const { group } = separatorsOf(locale);
    decimal = sep === group && /^[0-9]{1,3}[.,][0-9]{3}$/.test(compact) ? undefined : sep;
  }
  const group = decimal === '.' ? ',' : decimal === ',' ? '.' : dots ? '.' : ',';
  // Grouping separators only between groups of three digits: "2.5.3" is not a number, "1.000.000" is.
  const integer = decimal ? compact.slice(0, compact.lastIndexOf(decimal)) : compact;
  if (integer.includes(group) && !new RegExp(`^[0-9]{1,3}(\\${group}[0-9]{3})+$`).test(integer)) return undefined;
  const withoutGroups = compact.split(group).join('');
  if (decimal && withoutGroups.split(decimal).length > 2) return undefined;
  const plain = decimal ? withoutGroups.replace(decimal, '.') : withoutGroups;
  return plain.startsWith('.') ? `0${plain}` : plain;
}

/** An amount of `unit` in base units: positive, and no finer than the token's smallest unit. */
export function checkAmount(text: string, unit: Unit, locale?: string): Checked<bigint> {
  if (text.trim() === '') return { ok: false, error: 'Enter an amount.' };
  const plain = normalizeNumber(text, locale);
  if (plain === undefined) return { ok: false, error: 'Enter a number, such as 12.5.' };
  const [, fraction = ''] = plain.split('.');
  const smallest = formatAmount(1n, unit.decimals, unit.decimals);
  if (fraction.replace(/0+$/, '').length > unit.decimals) {
    return {
      ok: false,
      error: `${unit.symbol} has ${unit.decimals} decimals: the smallest amount is ${smallest} ${unit.symbol}.`,
    };
  }
  const value = parseUnits(plain, unit.decimals);
  if (value === 0n) return { ok: false, error: 'Enter an amount above zero.' };
  return { ok: true, value };
}

/** The slippage allowed, in millionths of the quote. */
export function checkSlippage(text: string, locale?: string): Checked<bigint> {
  const plain = normalizeNumber(text, locale);
  const percent = plain === undefined ? Number.NaN : Number(plain);
  if (text.trim().startsWith('-') || !Number.isFinite(percent) || percent < SLIPPAGE_MIN || percent > SLIPPAGE_MAX) {
    return { ok: false, error: `Slippage is a percentage from ${SLIPPAGE_MIN} to ${SLIPPAGE_MAX}.` };
  }
  const value = BigInt(Math.round(percent * 10_000));
  if (percent < 0.1) return { ok: true, value, warning: 'Below 0.1%: the trade may fail if the price moves at all.' };
  if (percent > 5) return { ok: true, value, warning: 'Above 5%: you may get much less than the quote.' };
  return { ok: true, value };
}

/** The deadline in whole minutes. */
export function checkDeadline(text: string): Checked<number> {
  const minutes = /^\s*[0-9]+\s*$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isInteger(minutes) || minutes < DEADLINE_MIN || minutes > DEADLINE_MAX) {
    return { ok: false, error: `The deadline is a whole number of minutes from ${DEADLINE_MIN} to ${DEADLINE_MAX}.` };
  }
  return { ok: true, value: minutes };
}

/** A count of things (cards to mint) as typed: a whole number from `min` to `max`, never rounded or clamped. */
export function checkCount(text: string, min: number, max: number, what: string): Checked<number> {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, error: `Enter how many ${what}, from ${min} to ${max}.` };
  if (!/^[0-9]+$/.test(trimmed)) return { ok: false, error: `Enter a whole number of ${what}, from ${min} to ${max}.` };
  const n = Number(trimmed);
  if (n < min || n > max) return { ok: false, error: `You can mint ${min} to ${max} ${what} at a time.` };
  return { ok: true, value: n };
}
