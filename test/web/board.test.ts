// The token board's rules (web/src/board.ts): which tokens each tab shows (About to graduate from 70% on, just
// inside and outside), every column's order both ways with tokens that never traded last, prices compared as exact
// decimals, and the search by name or symbol.
import { describe, expect, it } from 'vitest';
import {
  ABOUT_TO_GRADUATE_PCT,
  BOARD_SORTS,
  type BoardToken,
  boardRows,
  compareDecimal,
  inTab,
  matches,
  sortTokens,
} from '../../web/src/board.ts';

function token(symbol: string, fields: Partial<BoardToken> = {}): BoardToken {
  return {
    id: symbol,
    name: `${symbol} Company`,
    slug: symbol.toLowerCase(),
    tokenSymbol: symbol,
    tokenStatus: 'BONDING',
    price: '0.01',
    marketCap: '10000',
    volume24h: '0',
    priceChange24h: 0,
    graduationProgress: 10,
    holderCount: 1,
    ageSeconds: 60,
    ...fields,
  } as BoardToken;
}

describe('compareDecimal', () => {
  it('compares decimal strings exactly, past what a float tells apart', () => {
    expect(compareDecimal('0.000001', '0.00001')).toBe(-1);
    expect(compareDecimal('10', '9.999999')).toBe(1);
    expect(compareDecimal('1.50', '1.5')).toBe(0);
    expect(compareDecimal('9007199254740993', '9007199254740992')).toBe(1);
    expect(compareDecimal('0.1000000000000000001', '0.1')).toBe(1);
    expect(compareDecimal('-2', '1')).toBe(-1);
    expect(() => compareDecimal('1e3', '1')).toThrow();
  });
});

describe('tabs', () => {
  it(`puts a bonding token in About to graduate from ${ABOUT_TO_GRADUATE_PCT}% on, and every bonding token in New`, () => {
    const below = token('BELOW', { graduationProgress: 69.99 });
    const at = token('AT', { graduationProgress: 70 });
    const graduated = token('GRAD', { tokenStatus: 'GRADUATED', graduationProgress: 100 });
    expect([below, at, graduated].filter((t) => inTab(t, 'new')).map((t) => t.tokenSymbol)).toEqual(['BELOW', 'AT']);
    expect([below, at, graduated].filter((t) => inTab(t, 'graduating')).map((t) => t.tokenSymbol)).toEqual(['AT']);
    expect([below, at, graduated].filter((t) => inTab(t, 'graduated')).map((t) => t.tokenSymbol)).toEqual(['GRAD']);
  });

  it('orders each tab by its default: New the newest first, About to graduate the nearest, Graduated the largest', () => {
    const tokens = [
      token('OLD', { ageSeconds: 900, graduationProgress: 95, marketCap: '5' }),
      token('MID', { ageSeconds: 300, graduationProgress: 75, marketCap: '50' }),
      token('NEW', { ageSeconds: 10, graduationProgress: 80, marketCap: '500' }),
    ];
    expect(boardRows(tokens, { tab: 'new' }).map((t) => t.tokenSymbol)).toEqual(['NEW', 'MID', 'OLD']);
    expect(boardRows(tokens, { tab: 'graduating' }).map((t) => t.tokenSymbol)).toEqual(['OLD', 'NEW', 'MID']);
    const graduated = tokens.map((t) => ({ ...t, tokenStatus: 'GRADUATED' as const }));
    expect(boardRows(graduated, { tab: 'graduated' }).map((t) => t.tokenSymbol)).toEqual(['NEW', 'MID', 'OLD']);
  });
});

describe('sorting', () => {
  const tokens = [
    token('A', {
      price: '0.000002',
      marketCap: '2',
      volume24h: '100.5',
      priceChange24h: -5,
      graduationProgress: 1,
      holderCount: 3,
      ageSeconds: 30,
    }),
    token('B', {
      price: '0.00001',
      marketCap: '10',
      volume24h: '100.25',
      priceChange24h: 12.5,
      graduationProgress: 40,
      holderCount: 1,
      ageSeconds: 3_000,
    }),
    token('C', {
      price: null,
      marketCap: null,
      volume24h: '0',
      priceChange24h: null,
      graduationProgress: 0,
      holderCount: 0,
      ageSeconds: 5,
    }),
  ];
  const symbols = (list: BoardToken[]) => list.map((t) => t.tokenSymbol).join('');
  it.each([
    ['price', 'BAC', 'ABC'],
    ['marketCap', 'BAC', 'ABC'],
    ['change', 'BAC', 'ABC'],
    ['volume', 'ABC', 'CBA'],
    ['progress', 'BAC', 'CAB'],
    ['holders', 'ABC', 'CBA'],
    ['age', 'BAC', 'CAB'],
  ] as const)('sorts by %s: descending %s, ascending %s (no value last both ways)', (sort, desc, asc) => {
    expect(symbols(sortTokens(tokens, sort, 'desc'))).toBe(desc);
    expect(symbols(sortTokens(tokens, sort, 'asc'))).toBe(asc);
  });

  it('covers every column the board offers', () => {
    expect([...BOARD_SORTS].sort()).toEqual(['age', 'change', 'holders', 'marketCap', 'price', 'progress', 'volume']);
  });

  it('keeps the API order (newest first) between equal values', () => {
    const same = [token('X', { holderCount: 2 }), token('Y', { holderCount: 2 }), token('Z', { holderCount: 2 })];
    expect(symbols(sortTokens(same, 'holders', 'desc'))).toBe('XYZ');
    expect(symbols(sortTokens(same, 'holders', 'asc'))).toBe('XYZ');
  });
});

describe('search', () => {
  it('finds a token by part of its name or symbol, in any case, with or without $', () => {
    const t = token('NEURAL', { name: 'Neural Yield Co' });
    expect(matches(t, 'neur')).toBe(true);
    expect(matches(t, '$NEURAL')).toBe(true);
    expect(matches(t, 'yield co')).toBe(true);
    expect(matches(t, '  ')).toBe(true);
    expect(matches(t, 'alpha')).toBe(false);
    const rows = boardRows([t, token('ALPHA')], { tab: 'new', q: 'alp' });
    expect(rows.map((r) => r.tokenSymbol)).toEqual(['ALPHA']);
  });
});
