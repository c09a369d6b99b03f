// What every actor of the simulation is: honest ones (honest/) and attackers (adversaries/) alike. The day loop
// (days.ts) calls each hook in turn on the chain's clock; an actor does what it does through the public routes and
// the contracts, and books what it spends on its party (world.ts).
import { capitalCost } from './report.ts';
import type { Rng } from './rng.ts';
import type { Party, World } from './world.ts';

export interface Actor {
  party: Party;
  /** Before the first day: cards, companies, wallets. */
  setup?(world: World): Promise<void>;
  /** At the start of each simulated day (0-based), just past the chain's midnight. */
  startDay?(world: World, day: number): Promise<void>;
  /** At each trading slot of the day (days.ts SLOT_HOURS). */
  slot?(world: World, day: number, slot: number): Promise<void>;
  /** After the last day, before the accounting: sell what is left, so what the party holds is USDC. */
  finish?(world: World): Promise<void>;
}

/**
 * An attack: a name, the grid of its parameters and how to build an actor at one setting. A new attack found later
 * is one new file in adversaries/ exporting one of these, listed in adversaries/index.ts.
 */
export interface Strategy<P extends Record<string, number> = Record<string, number>> {
  name: string;
  /** One line: what it does and which score it buys. */
  summary: string;
  /** Each parameter's candidate values: a setting is one value of each (a random search draws settings). */
  grid: { [K in keyof P]: readonly number[] };
  create(params: P, party: Party, rng: Rng, days: number): Actor;
  /** Whether a setting can run in a run of `days` days (a join day past the last day cannot); default: any. */
  fits?(params: P, days: number): boolean;
  /**
   * The access cards a setting holds, each a company (or a card staked without one): what it counts for in the
   * run's share of attackers. Default 1.
   */
  cards?(params: P): number;
}

/** The cards a setting holds (Strategy.cards, default 1). */
export const cardsOf = <P extends Record<string, number>>(strategy: Strategy<P>, params: P) =>
  strategy.cards?.(params) ?? 1;

/** Every setting of a strategy's grid (one value of each parameter), in the grid's order. */
export function allSettings<P extends Record<string, number>>(strategy: Strategy<P>): P[] {
  let settings: Record<string, number>[] = [{}];
  for (const [k, values] of Object.entries(strategy.grid)) {
    settings = settings.flatMap((s) => (values as number[]).map((v) => ({ ...s, [k]: v })));
  }
  return settings as P[];
}

/**
 * One setting of a strategy's grid that fits a run of `days` days and holds at most `maxCards` cards, drawn with the
 * run's PRNG; undefined when none does (herding needs its pump day and its hold before the last day: a two-day run
 * has none; a field whose attackers' share is one card has no three-card sybil).
 */
export function drawSetting<P extends Record<string, number>>(
  strategy: Strategy<P>,
  rng: Rng,
  days: number,
  maxCards = Number.POSITIVE_INFINITY,
): P | undefined {
  const fitting = allSettings(strategy).filter(
    (s) => (strategy.fits?.(s, days) ?? true) && cardsOf(strategy, s) <= maxCards,
  );
  return fitting.length === 0 ? undefined : rng.pick(fitting);
}

/** Interest on money held for the stated days: the cost of capital (report.ts CAPITAL_RATE_PER_YEAR). */
export const interest = capitalCost;

/**
 * A trade that reverted on its slippage bound (the price moved between quote and trade) is left out, not fatal;
 * `dropped`, when given, is told why (its first line), so a strategy whose setting was not all traded can say so.
 */
export async function tolerant(run: () => Promise<unknown>, dropped?: (why: string) => void): Promise<boolean> {
  try {
    await run();
    return true;
  } catch (err) {
    const message = (err as Error).message;
    if (/reverted|slippage|exceeds balance/i.test(message)) {
      dropped?.(message.split('\n')[0]!.slice(0, 200));
      return false;
    }
    throw err;
  }
}

/**
 * `each` on every item, at most `limit` at once, started in the items' order (so what each draws or numbers before
 * its first wait is in that order). The first failure is thrown once every started one has settled.
 */
export async function inParallel<T>(items: readonly T[], limit: number, each: (item: T) => Promise<unknown>) {
  let next = 0;
  let failure: unknown;
  const lane = async () => {
    while (next < items.length && failure === undefined) {
      const item = items[next++]!;
      try {
        await each(item);
      } catch (err) {
        failure ??= err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  if (failure !== undefined) throw failure;
}
