// Who is in a run's field: how many honest companies, and which attackers at which settings. Pure (the PRNG in,
// the field out), so the unit tests check it without a chain.
//
// The share of attackers counts the cards they hold, not the attackers: the "10% of them attackers" is 10%
// of the companies, and a sybil with three cards is three companies. A 10-company field at 10% has one attacking
// card, so a late joiner there holds one card, not three (the default run's three sybil cards were 25% of its twelve
// companies, which no 90% honest-share bar can be held to). A strategy's larger settings (three cards) run in a larger
// field, or in a search of its own (search.ts), where the field is fixed and the attacker's cards are added to it.
import { cardsOf, drawSetting, type Strategy } from './actor.ts';
import type { Rng } from './rng.ts';

export interface FieldAttacker {
  strategy: Strategy<any>;
  params: Record<string, number>;
  /** The attacker's own PRNG stream (forked from the run's as `attacker N`). */
  rng: Rng;
}

/** The attacking cards of a field of `companies` at a share `attackers`: round(companies x share), at least one when > 0. */
export function attackerCards(companies: number, attackers: number): number {
  return attackers > 0 ? Math.max(1, Math.round(companies * attackers)) : 0;
}

/**
 * The attackers of a run, drawn after its honest companies (so the run's PRNG is where it always was): the strategies
 * take turns from the one the seed picks, less those none of whose settings fits the run; each draws a setting that
 * fits the days and the cards still left of the share. Stops when the cards are spent.
 */
export function drawAttackers(
  strategies: readonly Strategy<any>[],
  rng: Rng,
  { seed, days, cards }: { seed: number; days: number; cards: number },
): FieldAttacker[] {
  const first = (seed + strategies.length - 1) % strategies.length;
  const turns = [...strategies.slice(first), ...strategies.slice(0, first)].filter(
    (s) => drawSetting(s, rng.fork('probe'), days) !== undefined,
  );
  const out: FieldAttacker[] = [];
  let left = cards;
  for (let n = 0; left > 0 && turns.length > 0 && n < cards; n++) {
    const strategy = turns[n % turns.length]!;
    const srng = rng.fork(`attacker ${n}`);
    const params = drawSetting(strategy, srng, days, left);
    if (!params) continue;
    left -= cardsOf(strategy, params);
    out.push({ strategy, params, rng: srng });
  }
  return out;
}

/** The cards a field's attackers hold in all. */
export const cardsHeld = (attackers: readonly { strategy: Strategy<any>; params: Record<string, number> }[]) =>
  attackers.reduce((n, a) => n + cardsOf(a.strategy, a.params), 0);

/**
 * The honest share an epoch must reach: 90% (a field of 10% attackers held to its head count), or the honest
 * companies' share of the field's companies when that is lower (4 companies at 10%: one attacking card is 25%, and
 * 75% is the most the bar can fairly ask). The default and CI runs' fields (10 and 20 companies) are at 90%.
 */
export const honestBar = (honest: number, attackingCards: number) =>
  Math.min(0.9, Math.floor((honest / Math.max(1, honest + attackingCards)) * 10_000) / 10_000);
