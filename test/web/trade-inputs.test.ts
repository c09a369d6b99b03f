// The trade form's field checks (web/src/trade/inputs.ts): amounts in either decimal separator and never finer than
// the token allows, the slippage from 0.05% to 50% with its warnings, the deadline from 1 to 60 minutes; each bound
// just inside and just outside.
import { describe, expect, it } from 'vitest';
import { USDC } from '../../web/src/format.ts';
import { checkAmount, checkCount, checkDeadline, checkSlippage, normalizeNumber } from '../../web/src/trade/inputs.ts';

const TOKEN = { symbol: 'WEBCO', decimals: 18 };
const value = <T>(c: { ok: boolean; value?: T }) => (c.ok ? c.value : undefined);
const error = (c: { ok: boolean; error?: string }) => (c.ok ? undefined : c.error);

describe('normalizeNumber', () => {
  it("reads the reader's decimal separator, and grouping where it can only be grouping", () => {
    expect(normalizeNumber('1.5', 'en-US')).toBe('1.5');
    expect(normalizeNumber('1,5', 'en-US')).toBe('1.5');
    expect(normalizeNumber('1,5', 'de-DE')).toBe('1.5');
    expect(normalizeNumber('1,000', 'en-US')).toBe('1000');
    expect(normalizeNumber('1.000', 'de-DE')).toBe('1000');
    expect(normalizeNumber('1.000', 'en-US')).toBe('1.000');
    expect(normalizeNumber('1,234,567.89', 'en-US')).toBe('1234567.89');
    expect(normalizeNumber('1.234.567,89', 'de-DE')).toBe('1234567.89');
    expect(normalizeNumber('1 234,5', 'fr-FR')).toBe('1234.5');
    expect(normalizeNumber('.5', 'en-US')).toBe('0.5');
  });

  it('refuses what is not a number', () => {
    for (const text of ['2.5.3', '1,2,3', '12.34.567']) expect(normalizeNumber(text, 'en-US')).toBeUndefined();
    expect(normalizeNumber('1.000.000', 'de-DE')).toBe('1000000');
    expect(normalizeNumber('1,234,567.5', 'en-US')).toBe('1234567.5');
    for (const text of ['abc', '', '-5', '1e5', '1.2.3,4,5x', '0x10'])
      expect(normalizeNumber(text, 'en-US'), text).toBe(undefined);
  });
});

describe('checkAmount', () => {
  it('gives base units, exact', () => {
    expect(value(checkAmount('2500', USDC, 'en-US'))).toBe(2_500_000_000n);
    expect(value(checkAmount('0,000001', USDC, 'de-DE'))).toBe(1n);
    expect(value(checkAmount('1.000000000000000001', TOKEN, 'en-US'))).toBe(10n ** 18n + 1n);
  });

  it('says why an amount is refused: empty, not a number, zero, finer than the token', () => {
    expect(error(checkAmount('', USDC))).toBe('Enter an amount.');
    expect(error(checkAmount('abc', USDC))).toBe('Enter a number, such as 12.5.');
    expect(error(checkAmount('0', USDC))).toBe('Enter an amount above zero.');
    expect(error(checkAmount('0.0000001', USDC, 'en-US'))).toBe(
      'USDC has 6 decimals: the smallest amount is 0.000001 USDC.',
    );
    // Trailing zeros are not finer.
    expect(value(checkAmount('0.0000010', USDC, 'en-US'))).toBe(1n);
  });
});

describe('checkSlippage', () => {
  it('takes 0.05% to 50%, in millionths, and warns outside 0.1% to 5%', () => {
    expect(checkSlippage('0.05', 'en-US')).toMatchObject({ ok: true, value: 500n });
    expect(checkSlippage('50', 'en-US')).toMatchObject({ ok: true, value: 500_000n });
    expect(checkSlippage('0.05', 'en-US')).toHaveProperty('warning');
    expect(checkSlippage('0.1', 'en-US')).not.toHaveProperty('warning');
    expect(checkSlippage('5', 'en-US')).not.toHaveProperty('warning');
    expect(checkSlippage('5.01', 'en-US')).toHaveProperty('warning');
    expect(checkSlippage('0,5', 'de-DE')).toMatchObject({ ok: true, value: 5_000n });
  });

  it('refuses 80, -5, "abc", and just outside the bounds', () => {
    for (const text of ['80', '-5', 'abc', '', '0.04', '50.01']) {
      expect(error(checkSlippage(text, 'en-US')), text).toBe('Slippage is a percentage from 0.05 to 50.');
    }
  });
});

describe('checkDeadline', () => {
  it('takes whole minutes from 1 to 60', () => {
    expect(value(checkDeadline('1'))).toBe(1);
    expect(value(checkDeadline('60'))).toBe(60);
    for (const text of ['0', '61', 'abc', '', '1.5', '-1']) {
      expect(error(checkDeadline(text)), text).toBe('The deadline is a whole number of minutes from 1 to 60.');
    }
  });
});

describe('checkCount (cards to mint)', () => {
  it('takes what is typed, 1 to 5, exactly', () => {
    expect(checkCount('1', 1, 5, 'cards')).toEqual({ ok: true, value: 1 });
    expect(checkCount(' 5 ', 1, 5, 'cards')).toEqual({ ok: true, value: 5 });
  });

  it('refuses just outside, a fraction, an empty field and words, never clamping or throwing', () => {
    for (const text of ['0', '6', '13']) {
      expect(checkCount(text, 1, 5, 'cards')).toEqual({ ok: false, error: 'You can mint 1 to 5 cards at a time.' });
    }
    for (const text of ['2.5', '2,5', '-1', 'abc', '1e3']) {
      expect(checkCount(text, 1, 5, 'cards')).toEqual({
        ok: false,
        error: 'Enter a whole number of cards, from 1 to 5.',
      });
    }
    expect(checkCount('', 1, 5, 'cards')).toEqual({ ok: false, error: 'Enter how many cards, from 1 to 5.' });
  });
});
