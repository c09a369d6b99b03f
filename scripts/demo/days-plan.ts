// The plan of the demo's simulated days (pure: nothing here talks to the service or the chain). The demo's market
// runs on the chain's clock: on each day it trades at a few fixed hours of the chain's UTC day, the engine runs the
// scheduled rounds that fall due as the clock moves, and just after the chain's midnight the day's score snapshot is
// taken. The traders are fresh wallets of the public mnemonic, linked to no company, so their trades count as a
// real market does: at least ten distinct traders per token and day, as the agents' buy rules ask.

/** Simulated days by default (`--days`): the launch day, a day the agents buy in, a day they take profit. */
export const DEFAULT_DAYS = 3;
export const MAX_DAYS = 14;

/** Hours of the chain's UTC day at which the market trades (a slot each). */
export const TRADING_HOURS = [3, 9, 15, 21] as const;

/** Market traders: mnemonic address indices 200 .. 200 + MARKET_TRADERS - 1, linked to no company. */
export const MARKET_TRADERS = 12;
export const marketTraderIndex = (i: number) => 200 + i;
export const MARKET_TRADER_INDICES = Array.from({ length: MARKET_TRADERS }, (_, i) => marketTraderIndex(i));
/** Whole USDC each market trader is topped up to (from dev account 9) before it trades. */
export const MARKET_TRADER_USDC = 5_000;
/** Dev account that funds the market traders: no company's creator. */
export const MARKET_FUNDER = 9;

/**
 * The token the market keeps buying: the top mover of every day, so the momentum CFO (Spot Sprinters) buys it once
 * it is old enough and sells half at its take-profit.
 */
export const HOT_SYMBOL = 'NEURAL';

const HOUR = 3_600;
const DAY = 86_400;

/** Start (epoch seconds) of the UTC day holding `t`. */
export const dayStart = (t: number) => Math.floor(t / DAY) * DAY;

/**
 * The trading slots (epoch seconds) of the chain's day holding `now` that are still ahead of it by a minute or more:
 * a run that stopped in the middle of a day resumes with the slots left, never trades a slot's hour twice.
 */
export function slotsAhead(now: number): number[] {
  const start = dayStart(now);
  return TRADING_HOURS.map((h) => start + h * HOUR).filter((t) => t >= now + 60);
}

/** Just past the chain's next midnight: the block that closes the day, so its snapshot can be taken. */
export const nextMidnight = (now: number) => dayStart(now) + DAY + 60;

export interface MarketOrder {
  /** Mnemonic address index of the trader. */
  trader: number;
  side: 'buy' | 'sell';
  /** Whole USDC, for a buy. */
  usdc?: number;
  /** Percent of the trader's balance of the token, for a sale. */
  sellPct?: number;
}

/** Traders in each token at each slot: any three slots in a row (the 18 h before a slot) hold all twelve. */
export const TRADERS_PER_SLOT = 4;

/**
 * The market's orders in one token at one slot (`slot`, an index into TRADING_HOURS, of simulated day `day`): four
 * traders taken in turn over the twelve, so any three slots in a row have all twelve trading it and a round's last
 * 24 h always sees ten or more distinct traders, whether it runs before or after its own slot's trades. The mix is
 * fixed by the symbol, the day and the slot, so a re-run places the same orders. The hot token is bought by all
 * four; every other token by three, while the fourth sells part of what it holds.
 */
export function marketOrders(symbol: string, day: number, slot: number): MarketOrder[] {
  const seed = [...symbol].reduce((n, ch) => (n * 31 + ch.charCodeAt(0)) % 9_973, 7);
  const turn = day * TRADING_HOURS.length + slot;
  const traders = Array.from({ length: TRADERS_PER_SLOT }, (_, k) =>
    marketTraderIndex((turn * TRADERS_PER_SLOT + k) % MARKET_TRADERS),
  );
  const hot = symbol === HOT_SYMBOL;
  const seller = (seed + turn) % TRADERS_PER_SLOT;
  return traders.map((trader, k) => {
    const wobble = 1 + ((seed + turn * 3 + k) % 5) / 10;
    if (hot) return { trader, side: 'buy', usdc: Math.round(100 * wobble) };
    if (k === seller) return { trader, side: 'sell', sellPct: 20 + ((seed + day) % 3) * 10 };
    return { trader, side: 'buy', usdc: Math.round(40 * wobble) };
  });
}
