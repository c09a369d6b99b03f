// The kinds of setting (src/config/parse.ts): each reads its text or refuses it with a sentence that names the
// variable and the bound, at the bound and just past it.
import { describe, expect, it } from 'vitest';
import { address, bigint, bool, durationMs, int, list, oneOf, privateKey, url } from '../src/config/parse.ts';
import { read } from '../src/config/settings.ts';
import { ConfigError } from '../src/config.ts';

const refusal = (parse: () => unknown): string => {
  try {
    parse();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('accepted');
};

describe('the kinds of setting', () => {
  it('int and durationMs: whole numbers within their bounds', () => {
    expect(int(1, 10).parse('10', 'N')).toBe(10);
    expect(refusal(() => int(1, 10).parse('11', 'N'))).toBe('N must be between 1 and 10, got 11');
    expect(refusal(() => int(1, 10).parse('1.5', 'N'))).toBe('N must be a whole number between 1 and 10, got "1.5"');
    expect(durationMs(100, 200).parse('100', 'T_MS')).toBe(100);
    expect(refusal(() => durationMs(100, 200).parse('99', 'T_MS'))).toBe('T_MS must be between 100 and 200, got 99');
  });

  it('bigint: exact past 2^53, below its limit', () => {
    expect(bigint('wei').parse('340282366920938463463374607431768211455', 'W')).toBe(2n ** 128n - 1n);
    expect(refusal(() => bigint('gas', 100n, '100').parse('100', 'G'))).toBe(
      'G must be a whole number of gas (decimal digits, below 100), got "100"',
    );
  });

  it('oneOf, bool and list: their words only', () => {
    expect(oneOf(['a', 'b'] as const).parse('b', 'E')).toBe('b');
    expect(refusal(() => oneOf(['a', 'b'] as const).parse('c', 'E'))).toBe('E must be one of a, b, got "c"');
    expect(bool.parse('true', 'B')).toBe(true);
    expect(refusal(() => bool.parse('yes', 'B'))).toBe('B must be "true" or "false", got "yes"');
    expect(list({ values: ['x', 'y'] }).parse('y, x', 'L')).toEqual(['y', 'x']);
    expect(refusal(() => list({ values: ['x'] }).parse('x,z', 'L'))).toBe(
      'L must be a comma-separated subset of x, got "z"',
    );
    expect(list({ max: 2 }).parse('a, b,,a', 'L')).toEqual(['a', 'b']);
    expect(refusal(() => list({ max: 2 }).parse('a,b,c', 'L'))).toBe('L names 3 entries; at most 2');
  });

  it('url: of its protocols', () => {
    expect(url(['redis:']).parse('redis://cache:6379', 'U')).toBe('redis://cache:6379');
    expect(refusal(() => url(['redis:']).parse('http://cache', 'U'))).toBe('U must use one of redis:, got http:');
  });

  it('address: checksummed whatever the case given; a private key never echoed', () => {
    const lower = '0x52908400098527886e0f7030069857d2e4169ee7';
    expect(address.parse(lower, 'A')).toBe('0x52908400098527886E0F7030069857D2E4169EE7');
    expect(refusal(() => address.parse('0x1234', 'A'))).toMatch(/^A must be an address, 0x followed by 40 hex/);
    expect(refusal(() => privateKey.parse('0xs3cret', 'K'))).toBe('K must be 0x followed by 64 hex characters');
  });

  it('read: a row of the table, its default when the variable is unset or blank', () => {
    expect(read({}, 'PORT')).toBe(3000);
    expect(read({ PORT: '  ' }, 'PORT')).toBe(3000);
    expect(read({ PORT: ' 8080 ' }, 'PORT')).toBe(8080);
    expect(read({ LLM_OPENAI_API_KEY: 'k' }, 'LLM_<PROVIDER>_API_KEY', 'LLM_OPENAI_API_KEY')).toBe('k');
    expect(() => read({}, 'LLM_<PROVIDER>_API_KEY', 'LLM_NOPE_API_KEY')).toThrow(ConfigError);
  });
});
