// The card token id's documented pattern accepts exactly the ids the NFT routes serve.
import { describe, expect, it } from 'vitest';
import { CARD_TOKEN_ID_PATTERN, parseCardTokenId } from '../../../src/domain/cards/tiers.ts';

describe('CARD_TOKEN_ID_PATTERN', () => {
  it('matches a string exactly when parseCardTokenId accepts it', () => {
    const mismatches: string[] = [];
    const check = (raw: string) => {
      if (CARD_TOKEN_ID_PATTERN.test(raw) !== (parseCardTokenId(raw) !== undefined)) mismatches.push(raw);
    };
    for (let n = 0; n <= 99_999; n++) {
      const digits = String(n);
      for (let width = digits.length; width <= 6; width++) check(digits.padStart(width, '0'));
    }
    for (const raw of ['', '-1', '1.0', ' 1', '1e3', '0x10', 'abc']) check(raw);
    expect(mismatches).toEqual([]);
  });
});
