// The token board's rules, apart from the page so they can be tested alone: its tabs, its columns and how each
// sorts, and the search by name or symbol. The API lists tokens newest first with no other order and no search, so
// the board reads every launched token (at most one per access card: 10,000) and sorts and filters them here;
// prices and market caps are compared as exact decimals, never as floats.
import type { components } from './api-schema.d.ts';

export type BoardToken = components['schemas']['TokenListItem'];

export const BOARD_TABS = ['new', 'graduating', 'graduated'] as const;
export type BoardTab = (typeof BOARD_TABS)[number];

/** A bonding token this far to graduation (its market cap against the threshold) is "about to graduate". */
export const ABOUT_TO_GRADUATE_PCT = 70;

export const TAB_LABELS: Record<BoardTab, string> = {
  new: 'New',
  graduating: 'About to graduate',
  graduated: 'Graduated',
};

export const BOARD_SORTS = ['price', 'marketCap', 'change', 'volume', 'progress', 'holders', 'age'] as const;
export type BoardSort = (typeof BOARD_SORTS)[number];
export type SortDir = 'asc' | 'desc';

export const SORT_LABELS: Record<BoardSort, string> = {
  price: 'Price',
  marketCap: 'Market cap',
  change: '24 h change',
  volume: '24 h volume',
  progress: 'Bonding progress',
  holders: 'Holders',
  age: 'Age',
};

/** Each tab's order when the address names none: the newest first, the nearest to graduation, the largest. */
export const TAB_DEFAULT_SORT: Record<BoardTab, { sort: BoardSort; dir: SortDir }> = {
  new: { sort: 'age', dir: 'asc' },
  graduating: { sort: 'progress', dir: 'desc' },
  graduated: { sort: 'marketCap', dir: 'desc' },
};

/** A header's first click: largest first for amounts, youngest first for age. */
export const FIRST_DIR: Record<BoardSort, SortDir> = {
  price: 'desc',
  marketCap: 'desc',
  change: 'desc',
  volume: 'desc',
  progress: 'desc',
  holders: 'desc',
  age: 'asc',
};

/** The API's status filter of a tab. */
export const TAB_STATUS: Record<BoardTab, 'BONDING' | 'GRADUATED'> = {
  new: 'BONDING',
  graduating: 'BONDING',
  graduated: 'GRADUATED',
};

/** The tokens a tab shows: New is every token still on its curve, About to graduate those at 70% or more. */
export function inTab(token: BoardToken, tab: BoardTab): boolean {
  if (tab === 'graduated') return token.tokenStatus === 'GRADUATED';
  if (token.tokenStatus !== 'BONDING') return false;
  return tab === 'new' || token.graduationProgress >= ABOUT_TO_GRADUATE_PCT;
}

/**
 * Two non-negative or negative decimal strings compared exactly (`"0.000001" < "0.00001"`), without a float:
 * negative, zero or positive as a is below, equal to or above b.
 */
export function compareDecimal(a: string, b: string): number {
  const parse = (s: string) => {
    const m = /^(-)?(\d+)(?:\.(\d+))?$/.exec(s.trim());
    if (!m) throw new Error(`not a decimal: ${s}`);
    return { negative: m[1] === '-', whole: m[2]!.replace(/^0+(?=\d)/, ''), fraction: m[3] ?? '' };
  };
  const x = parse(a);
  const y = parse(b);
  const places = Math.max(x.fraction.length, y.fraction.length);
  const scaled = (v: ReturnType<typeof parse>) =>
    (v.negative ? -1n : 1n) * BigInt(v.whole + v.fraction.padEnd(places, '0'));
  const d = scaled(x) - scaled(y);
  return d < 0n ? -1 : d > 0n ? 1 : 0;
}

type Key = { kind: 'decimal'; value: string | null } | { kind: 'number'; value: number | null };

function keyOf(token: BoardToken, sort: BoardSort): Key {
  switch (sort) {
    case 'price':
      return { kind: 'decimal', value: token.price };
    case 'marketCap':
      return { kind: 'decimal', value: token.marketCap };
    case 'volume':
      return { kind: 'decimal', value: token.volume24h };
    case 'change':
      return { kind: 'number', value: token.priceChange24h };
    case 'progress':
      return { kind: 'number', value: token.graduationProgress };
    case 'holders':
      return { kind: 'number', value: token.holderCount };
    case 'age':
      return { kind: 'number', value: token.ageSeconds };
  }
}

/**
 * The tokens in the column's order. A token without a value (never traded: no price, no change) comes last in
 * either direction; equal values keep the newest first, so the order is the same on every render.
 */
export function sortTokens(tokens: readonly BoardToken[], sort: BoardSort, dir: SortDir): BoardToken[] {
  const sign = dir === 'asc' ? 1 : -1;
  return tokens
    .map((token, index) => ({ token, index, key: keyOf(token, sort) }))
    .sort((a, b) => {
      const av = a.key.value;
      const bv = b.key.value;
      if (av === null || bv === null) {
        if (av === null && bv === null) return a.index - b.index;
        return av === null ? 1 : -1;
      }
      const c = a.key.kind === 'decimal' ? compareDecimal(av as string, bv as string) : (av as number) - (bv as number);
      return c !== 0 ? sign * c : a.index - b.index;
    })
    .map((x) => x.token);
}

/** Whether a token matches what was typed: its name or symbol contains it, in any case (`$` before a symbol too). */
export function matches(token: BoardToken, query: string): boolean {
  const q = query.trim().toLowerCase().replace(/^\$/, '');
  if (q === '') return true;
  return token.name.toLowerCase().includes(q) || token.tokenSymbol.toLowerCase().includes(q);
}

/** What the board shows: the tab's tokens that match the search, in the order asked for. */
export function boardRows(
  tokens: readonly BoardToken[],
  options: { tab: BoardTab; q?: string; sort?: BoardSort; dir?: SortDir },
): BoardToken[] {
  const order = options.sort
    ? { sort: options.sort, dir: options.dir ?? FIRST_DIR[options.sort] }
    : TAB_DEFAULT_SORT[options.tab];
  const chosen = tokens.filter((t) => inTab(t, options.tab) && matches(t, options.q ?? ''));
  return sortTokens(chosen, order.sort, order.dir);
}

/** How many tokens the board reads at most (pages of the API's largest size). */
export const BOARD_PAGE_SIZE = 100;
export const BOARD_MAX_PAGES = 100;
