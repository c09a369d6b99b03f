// How the app writes numbers (web/src/format.ts): exact amounts from bigints in the reader's locale (the grouping
// and decimal separators of en-US, de-DE, fr-FR and en-IN), cut rather than rounded up, tiny amounts keeping two
// significant digits, money strings never passed through a float, signed percentages with a real minus sign, ages
// and UTC days.
import { describe, expect, it } from 'vitest';
import {
  age,
  amountOf,
  clip,
  formatAmount,
  formatDecimal,
  formatNumber,
  money,
  signedPercent,
  utcDay,
} from '../../web/src/format.ts';

const NNBSP = '\u202f';

describe('formatAmount', () => {
  it('groups and separates as the locale does: 1,234.5 in English, 1.234,5 in German', () => {
    expect(formatAmount(1_234_500_000n, 6, 6, 'en-US')).toBe('1,234.5');
    expect(formatAmount(1_234_500_000n, 6, 6, 'de-DE')).toBe('1.234,5');
    expect(formatAmount(1_234_500_000n, 6, 6, 'fr-FR')).toBe(`1${NNBSP}234,5`);
    expect(formatAmount(12_345_678_000_000n, 6, 6, 'en-IN')).toBe('1,23,45,678');
  });

  it('is exact beyond what a float holds: 26 digits and 18 decimals, digit for digit', () => {
    const wei = 12_345_678_901_234_567_890_123_456_789_012_345_678n; // 12,345,678,901,234,567,890.123456789012345678
    expect(formatAmount(wei, 18, 18, 'en-US')).toBe('12,345,678,901,234,567,890.123456789012345678');
    expect(formatAmount(wei, 18, 18, 'de-DE')).toBe('12.345.678.901.234.567.890,123456789012345678');
    // 2^53 + 1 is not a float: a Number() on the way would print ...992.
    expect(formatAmount(9_007_199_254_740_993n, 0, 0, 'en-US')).toBe('9,007,199,254,740,993');
  });

  it('cuts at `places` decimals, never rounding up; a tiny amount keeps two significant digits', () => {
    expect(formatAmount(1_999_999n, 6, 2, 'en-US')).toBe('1.99');
    expect(formatAmount(1_999_999n, 6, 6, 'en-US')).toBe('1.999999');
    expect(formatAmount(1_000_000n, 6, 2, 'en-US')).toBe('1');
    expect(formatAmount(1n, 18, 6, 'en-US')).toBe('0.000000000000000001');
    expect(formatAmount(1_234n, 18, 6, 'de-DE')).toBe('0,0000000000000012');
    // The rule's bound: the first digit at the `places`-th decimal is kept as is, one further keeps two digits.
    expect(formatAmount(10n ** 12n, 18, 6, 'en-US')).toBe('0.000001');
    expect(formatAmount(10n ** 11n + 2n * 10n ** 10n, 18, 6, 'en-US')).toBe('0.00000012');
    expect(formatAmount(0n, 6, 6, 'en-US')).toBe('0');
  });

  it('keeps the sign of a negative amount, and gives no "-0"', () => {
    expect(formatAmount(-1_234_500_000n, 6, 6, 'de-DE')).toBe('-1.234,5');
    expect(formatDecimal('-0.000', 2, 'en-US')).toBe('0');
  });

  it('names the unit after the amount', () => {
    expect(amountOf(100_000_000n, { symbol: 'USDC', decimals: 6 }, 6, 'de-DE')).toBe('100 USDC');
    expect(amountOf(1_234_560_000n, { symbol: 'USDC', decimals: 6 }, 6, 'de-DE')).toBe('1.234,56 USDC');
  });
});

describe('money and formatDecimal (decimal strings from the API)', () => {
  it('formats a decimal string exactly in the locale, rounding only at `places`', () => {
    expect(money('1234.5', 2, 'de-DE')).toBe('1.234,5');
    expect(money('1234.5', 2, 'en-US')).toBe('1,234.5');
    expect(money('123456789012345678.125', 2, 'en-US')).toBe('123,456,789,012,345,678.13');
    expect(money('0.005', 2, 'en-US')).toBe('0.005');
    expect(money('0.01', 2, 'en-US')).toBe('0.01');
    expect(money('-12.5', 2, 'de-DE')).toBe('-12,5');
    expect(money(null)).toBe('—');
    expect(money('')).toBe('—');
    expect(money('not a number')).toBe('not a number');
    expect(money(1234.5, 2, 'de-DE')).toBe('1.234,5');
  });

  it('refuses what is not a plain decimal', () => {
    expect(formatDecimal('1e21', 2, 'en-US')).toBeUndefined();
    expect(formatDecimal('1.', 2, 'en-US')).toBeUndefined();
    expect(formatDecimal('12345.678', 2, 'de-DE')).toBe('12.345,67');
  });
});

describe('numbers, percentages, ages and days', () => {
  it('writes scores and counts in the locale', () => {
    expect(formatNumber(1234.567, 2, 'de-DE')).toBe('1.234,57');
    expect(formatNumber(72.5, 2, 'en-US', 2)).toBe('72.50');
    expect(formatNumber(1_000, 0, 'fr-FR')).toBe(`1${NNBSP}000`);
  });

  it('signs a change with + or − (U+2212), so the direction never rests on colour alone', () => {
    expect(signedPercent(12.5, 'en-US')).toBe('+12.50%');
    expect(signedPercent(-3.25, 'en-US')).toBe('\u22123.25%');
    expect(signedPercent(-3.25, 'de-DE')).toBe('\u22123,25%');
    expect(signedPercent(0, 'en-US')).toBe('0.00%');
    expect(signedPercent(0.01, 'en-US')).toBe('+0.01%');
    expect(signedPercent(null)).toBe('—');
  });

  it('gives an age in its largest whole unit, each bound just inside and outside', () => {
    expect(age(0)).toBe('0 s');
    expect(age(59)).toBe('59 s');
    expect(age(60)).toBe('1 min');
    expect(age(3_599)).toBe('59 min');
    expect(age(3_600)).toBe('1 h');
    expect(age(86_399)).toBe('23 h');
    expect(age(86_400)).toBe('1 d');
  });

  it('names a UTC day in the locale, whatever the reader’s zone', () => {
    expect(utcDay('2026-11-25', 'en-US')).toBe('Wednesday, November 25, 2026');
    expect(utcDay('2026-11-25T00:00:00.000Z', 'de-DE')).toBe('Mittwoch, 25. November 2026');
  });
});

describe('clip', () => {
  it('keeps a short text whole, and cuts a long one at a word boundary with an ellipsis, never mid-word', () => {
    expect(clip('grow the treasury', 140)).toBe('grow the treasury');
    expect(clip('Buy the dip, then hold steadily', 14)).toBe('Buy the dip…');
    expect(clip('Buy the dip, then hold steadily', 18)).toBe('Buy the dip, then…');
    expect(clip('Supercalifragilistic', 5)).toBe('Super…');
  });
});
