// What the simulation reports (pure: figures in, table and JSON out): per attacker, what its strategy cost, the
// reward tokens it earned, their value at four prices of the primary token and the break-even price; per strategy
// the most profitable setting (the lowest break-even); for the platform, the honest companies' share of each
// distributed epoch and whether the rewards stayed within the pool.

import type { TokenFlows } from './attribution.ts';
import type { EmissionResult } from './emission.ts';
import type { HonestAgentsPnl } from './pnl.ts';

export const PRICES = [0.001, 0.01, 0.1, 1] as const;

/**
 * The stated gas price an attacker's transactions are charged at: 0.01 gwei (a busy Base-like L2; the local chain's
 * own base fee says nothing about a real one) and ether at 3,000 USDC. A million gas costs 0.03 USDC so.
 */
export const GAS_PRICE_GWEI = 0.01;
export const ETH_USDC = 3_000;
export const gasUsdc = (gasUnits: bigint) => (Number(gasUnits) * GAS_PRICE_GWEI * ETH_USDC) / 1e9;

/**
 * The stated cost of capital: money an attacker holds (a treasury, a stake, a loan parked for hours) costs this much
 * a year, what borrowing it or not lending it out costs (5%: a stablecoin loan's rate, give or take). So a held
 * treasury's break-even counts what holding it costs.
 */
export const CAPITAL_RATE_PER_YEAR = 0.05;
/** What holding `usdcWhole` USDC for `days` days costs at CAPITAL_RATE_PER_YEAR, in USDC base units (6 decimals). */
export const capitalCost = (usdcWhole: number, days: number) =>
  BigInt(Math.round(((usdcWhole * CAPITAL_RATE_PER_YEAR * days) / 365) * 1e6));

/** The break-even bar at a field where some honest company earns its rewards for more, in USDC a primary token. */
export const BREAK_EVEN_BAR = 0.01;

/**
 * What an honest company paid for each reward token: its card and the cost of capital on the treasury it held over
 * the run, over the tokens it was paid (null: paid none).
 */
export function honestBreakEven(cardUsdc: bigint, treasuryUsdc: number, days: number, tokens: number): number | null {
  if (tokens <= 0) return null;
  return round(Number(cardUsdc + capitalCost(treasuryUsdc, days)) / 1e6 / tokens, 6);
}

/**
 * The break-even an attack must reach: 0.01 USDC a token (BREAK_EVEN_BAR), or less on a field that pays every
 * honest company more cheaply than that (a small field over many epochs: ten companies share each week's pool, so a
 * card earns its price back many times over a month, honest or not), where the bar is what the cheapest honest
 * company paid: an attack fails when it buys rewards more cheaply than any honest company earns them.
 */
export function breakEvenBar(honest: (number | null)[]): number {
  const paid = honest.filter((b): b is number => b !== null);
  return paid.length ? Math.min(BREAK_EVEN_BAR, ...paid) : BREAK_EVEN_BAR;
}

/** Reward tokens (18 decimals) as whole tokens, to six places. */
export const wholeTokens = (wei: bigint) => Number(wei / 10n ** 12n) / 1e6;

export interface AttackerResult {
  strategy: string;
  params: Record<string, number>;
  companies: string[];
  /**
   * Whole USDC the attack cost its own money: funded minus what its wallets hold at the end, plus financing, plus
   * back what its tokens gained in price on other traders' money (that gain is `takenUsdc`, not a lower cost).
   */
  costUsdc: number;
  /** Gas units its wallets' transactions used, and their price at GAS_PRICE_GWEI (part of the cost). */
  gasUnits?: number;
  gasUsdc?: number;
  /** Whole USDC of curve fees its wallets paid (part of the cost). */
  feesUsdc: number;
  /** Whole USDC its wallets gained on token prices beyond the fees: other traders' money (see `paidBy`). */
  takenUsdc: number;
  /** Whole USDC each other party made or lost on the tokens this attacker traded: who paid `takenUsdc`. */
  paidBy: Record<string, number>;
  /** Whole reward tokens its companies were paid. */
  earnedTokens: number;
  valueUsdc: Record<string, number>;
  /** USDC per primary token at which the attack pays for itself; null: it earned nothing (never pays). */
  breakEven: number | null;
  /** What a closed attack got through (Party.breaches): any fails the invariants. */
  breaches?: string[];
}

export interface EpochResult {
  epoch: number;
  rewardPoolTokens: number;
  paidTokens: number;
  honestTokens: number;
  honestShare: number | null;
  /** Gini coefficient of the rewards among the honest companies (0: equal, near 1: one takes all). */
  honestGini?: number | null;
  participants: number;
}

export interface SimReport {
  seed: number;
  commit: string;
  options: Record<string, unknown>;
  seconds: number;
  /**
   * Milliseconds per phase: `wall: ...` the run's phases one after the other; the rest summed over concurrent work
   * (setup steps of actors set up at once count each actor's time).
   */
  timings?: Record<string, number>;
  honestCompanies: number;
  attackerCompanies: number;
  /**
   * What the honest companies paid for each reward token (honestBreakEven): the cheapest and the median, and the
   * break-even bar the attacks are held to (breakEvenBar).
   */
  honestBreakEven?: { cheapest: number | null; median: number | null; bar: number };
  marketTrades: number;
  /** The outside market's USDC funded, its value at the end (tokens at their sale quote) and the difference. */
  market: { fundedUsdc: number; valueUsdc: number; pnlUsdc: number };
  /** The honest companies' agents' PnL, realised and unrealised (average cost). */
  honestAgents: HonestAgentsPnl;
  /** Every company of the run, its party and the reward tokens it was paid per epoch. */
  companies?: { slug: string; party: string; honest: boolean; rewardTokens: Record<string, number> }[];
  /** Per launched token, each party's PnL and fees on it (attribution.ts). */
  tokenFlows?: TokenFlows[];
  attackers: AttackerResult[];
  /** The lowest break-even of each strategy (its most profitable setting). */
  best: AttackerResult[];
  epochs: EpochResult[];
  /** The staking emission: accrued by the contract's rate, paid by harvests, owed to the stakers. */
  emission?: EmissionResult;
  invariants: { name: string; ok: boolean; detail: string }[];
}

export function attackerResult(
  strategy: string,
  params: Record<string, number>,
  companies: string[],
  costBase: bigint,
  earnedWei: bigint,
  market: { feesUsdc: number; takenUsdc: number; paidBy: Record<string, number> } = {
    feesUsdc: 0,
    takenUsdc: 0,
    paidBy: {},
  },
  gasUnits = 0n,
): AttackerResult {
  const gas = gasUsdc(gasUnits);
  const costUsdc = Number(costBase) / 1e6 + Math.max(market.takenUsdc, 0) + gas;
  const earnedTokens = wholeTokens(earnedWei);
  return {
    strategy,
    params,
    companies,
    costUsdc: round(costUsdc),
    gasUnits: Number(gasUnits),
    gasUsdc: round(gas, 4),
    feesUsdc: round(market.feesUsdc),
    takenUsdc: round(Math.max(market.takenUsdc, 0)),
    paidBy: market.paidBy,
    earnedTokens: round(earnedTokens),
    valueUsdc: Object.fromEntries(PRICES.map((p) => [String(p), round(earnedTokens * p)])),
    breakEven: earnedTokens > 0 ? round(Math.max(costUsdc, 0) / earnedTokens, 6) : null,
  };
}

/** The Gini coefficient of non-negative amounts (mean absolute difference over twice the mean); null when none. */
export function gini(values: number[]): number | null {
  const n = values.length;
  const total = values.reduce((a, b) => a + b, 0);
  if (n === 0 || total <= 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  // Sum over i of (2i - n + 1) x_i, sorted ascending: the pairwise differences without the n^2 loop.
  const weighted = sorted.reduce((sum, x, i) => sum + (2 * i - n + 1) * x, 0);
  return round(weighted / (n * total), 4);
}

export function bestPerStrategy(results: AttackerResult[]): AttackerResult[] {
  const best = new Map<string, AttackerResult>();
  for (const r of results) {
    const prev = best.get(r.strategy);
    const key = (x: AttackerResult) => (x.breakEven === null ? Number.POSITIVE_INFINITY : x.breakEven);
    if (!prev || key(r) < key(prev)) best.set(r.strategy, r);
  }
  return [...best.values()];
}

/** The party name of a company's agents in the attribution (attribution.ts agentsOf). */
export const HONEST_AGENTS = 'honest agents of ';

/** The issue's invariants, at the thresholds docs/economics.md states. */
export function invariants(
  attackers: AttackerResult[],
  epochs: EpochResult[],
  emission?: EmissionResult,
  minBreakEven = BREAK_EVEN_BAR,
  minHonestShare = 0.9,
) {
  const out: { name: string; ok: boolean; detail: string }[] = [];
  if (emission) {
    const owed = round(emission.paidTokens + emission.pendingTokens, 6);
    out.push({
      name: 'emission paid within emission accrued',
      ok: owed <= emission.accruedTokens,
      detail: `paid ${emission.paidTokens} and owed ${emission.pendingTokens} of ${emission.accruedTokens} tokens accrued`,
    });
    for (const e of emission.epochs ?? []) {
      out.push({
        name: `epoch ${e.epoch}: emission paid by its end within emission accrued by then`,
        ok: e.paidTokens <= e.accruedTokens,
        detail: `paid ${e.paidTokens} of ${e.accruedTokens} tokens accrued`,
      });
    }
  }
  for (const e of epochs) {
    out.push({
      name: `epoch ${e.epoch}: rewards within the pool`,
      ok: e.paidTokens <= e.rewardPoolTokens,
      detail: `${e.paidTokens} of ${e.rewardPoolTokens}`,
    });
    if (e.honestShare !== null) {
      out.push({
        name: `epoch ${e.epoch}: honest share >= ${minHonestShare * 100}%`,
        ok: e.honestShare >= minHonestShare,
        detail: `${(e.honestShare * 100).toFixed(2)}%`,
      });
    }
  }
  for (const a of attackers) {
    const lost = Object.entries(a.paidBy)
      .filter(([party, usdc]) => party.startsWith(HONEST_AGENTS) && usdc < 0)
      .reduce((sum, [, usdc]) => sum + usdc, 0);
    if (lost < 0 && a.takenUsdc > 0) {
      out.push({
        name: `${a.strategy} (${params(a.params)}): honest agents lose nothing to it`,
        ok: false,
        detail: `they lost ${round(-lost)} USDC on its tokens, which took ${a.takenUsdc} USDC`,
      });
    }
  }
  for (const a of attackers) {
    if (a.breaches?.length) {
      out.push({
        name: `${a.strategy} (${params(a.params)}): a closed attack stays closed`,
        ok: false,
        detail: a.breaches.join('; '),
      });
    }
  }
  if (!out.some((i) => i.name.endsWith('honest agents lose nothing to it'))) {
    out.push({ name: 'honest agents lose nothing to an attacker', ok: true, detail: 'no attacker took their USDC' });
  }
  for (const a of bestPerStrategy(attackers)) {
    out.push({
      name: `${a.strategy}: break-even >= ${minBreakEven} USDC`,
      ok: a.breakEven === null || a.breakEven >= minBreakEven,
      detail: a.breakEven === null ? 'never' : `${a.breakEven} USDC`,
    });
  }
  return out;
}

const round = (x: number, places = 2) => Math.round(x * 10 ** places) / 10 ** places;

const params = (p: Record<string, number>) =>
  Object.entries(p)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');

export function formatTable(report: SimReport): string {
  const head = [
    'strategy',
    'setting',
    'cost USDC',
    'gas USDC',
    'taken USDC',
    'tokens',
    ...PRICES.map((p) => `@${p}`),
    'break-even',
  ];
  const row = (a: AttackerResult, mark: string) => [
    `${mark}${a.strategy}`,
    params(a.params),
    a.costUsdc.toFixed(2),
    (a.gasUsdc ?? 0).toFixed(4),
    (a.takenUsdc ?? 0).toFixed(2),
    a.earnedTokens.toFixed(2),
    ...PRICES.map((p) => a.valueUsdc[String(p)]!.toFixed(2)),
    a.breakEven === null ? 'never' : a.breakEven.toFixed(6),
  ];
  const best = new Set(report.best);
  const rows = [head, ...report.attackers.map((a) => row(a, best.has(a) ? '* ' : '  '))];
  const widths = head.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  const lines = [
    `economy simulation: seed ${report.seed}, commit ${report.commit}, ${report.honestCompanies} honest and ${report.attackerCompanies} attacking companies, ${report.marketTrades} market trades, ${report.seconds} s`,
    '',
    line(rows[0]!),
    ...rows.slice(1).map(line),
    "  (* the strategy's most profitable setting: the lowest break-even; values in USDC at a token price; taken: what",
    '   its wallets gained on token prices, from the other traders below, not counted against its cost; gas: its',
    `   wallets' gas at ${GAS_PRICE_GWEI} gwei and ${ETH_USDC} USDC an ether, part of the cost, as is the money it held`,
    `   at ${CAPITAL_RATE_PER_YEAR * 100}% a year)`,
    ...report.attackers
      .filter((a) => a.takenUsdc > 0)
      .map(
        (a) =>
          `  ${a.strategy} (${params(a.params)}) took ${a.takenUsdc.toFixed(2)} USDC; on its tokens: ${Object.entries(
            a.paidBy,
          )
            .map(([party, usdc]) => `${party} ${usdc.toFixed(2)}`)
            .join(', ')}`,
      ),
    '',
    ...report.epochs.map(
      (e) =>
        `epoch ${e.epoch}: ${e.participants} companies paid ${e.paidTokens} of ${e.rewardPoolTokens} tokens; honest share ${e.honestShare === null ? '-' : `${(e.honestShare * 100).toFixed(2)}%`}; Gini among honest companies ${e.honestGini ?? '-'}`,
    ),
    ...(report.honestBreakEven
      ? [
          `honest companies paid ${report.honestBreakEven.cheapest ?? '-'} (the cheapest) and ${report.honestBreakEven.median ?? '-'} (the median) USDC a reward token (their card and the capital they held); an attack's bar: ${report.honestBreakEven.bar}`,
        ]
      : []),
    ...(report.emission
      ? [
          `staking emission: ${report.emission.accruedTokens} tokens accrued, ${report.emission.paidTokens} paid, ${report.emission.pendingTokens} owed`,
        ]
      : []),
    '',
    `outside market: ${report.market.pnlUsdc.toFixed(2)} USDC (funded ${report.market.fundedUsdc.toFixed(2)}, worth ${report.market.valueUsdc.toFixed(2)} at the end)`,
    `honest agents' PnL: realised ${report.honestAgents.realizedUsdc.toFixed(2)} USDC, unrealised ${report.honestAgents.unrealizedUsdc.toFixed(2)} USDC; lost on attackers' tokens ${(report.honestAgents.lostToAttackersUsdc ?? 0).toFixed(2)} USDC`,
    ...(report.honestAgents.companies ?? []).map(
      (c) =>
        `  ${c.slug}: realised ${c.realizedUsdc.toFixed(2)}, unrealised ${c.unrealizedUsdc.toFixed(2)}, on attackers' tokens ${c.onAttackersTokensUsdc.toFixed(2)}; last rounds: ${c.buys} buys, ${c.sells} sales${Object.entries(
          c.refused,
        )
          .map(([why, n]) => `; ${n}x ${why}`)
          .join('')}`,
    ),
    '',
    ...report.invariants.map((i) => `${i.ok ? 'ok  ' : 'FAIL'} ${i.name} (${i.detail})`),
    ...(report.timings
      ? [
          '',
          `time: ${Object.entries(report.timings)
            .map(([k, ms]) => `${k} ${(ms / 1000).toFixed(1)} s`)
            .join('; ')}`,
        ]
      : []),
  ];
  return `${lines.join('\n')}\n`;
}
