// What the simulation reports (pure: figures in, table and JSON out): per attacker, what its strategy cost, the
// reward tokens it earned, their value at four prices of the primary token and the break-even price; per strategy
// the most profitable setting (the lowest break-even); for the platform, the honest companies' share of each
// distributed epoch and whether the rewards stayed within the pool.

export const PRICES = [0.001, 0.01, 0.1, 1] as const;

export interface AttackerResult {
  strategy: string;
  params: Record<string, number>;
  companies: string[];
  /** Whole USDC: funded minus what its wallets hold at the end, plus financing. */
  costUsdc: number;
  /** Whole reward tokens its companies were paid. */
  earnedTokens: number;
  valueUsdc: Record<string, number>;
  /** USDC per primary token at which the attack pays for itself; null: it earned nothing (never pays). */
  breakEven: number | null;
}

export interface EpochResult {
  epoch: number;
  rewardPoolTokens: number;
  paidTokens: number;
  honestTokens: number;
  honestShare: number | null;
  participants: number;
}

export interface SimReport {
  seed: number;
  commit: string;
  options: Record<string, unknown>;
  seconds: number;
  honestCompanies: number;
  attackerCompanies: number;
  marketTrades: number;
  /** The outside market's USDC funded, its value at the end (tokens at their sale quote) and the difference. */
  market: { fundedUsdc: number; valueUsdc: number; pnlUsdc: number };
  /** The honest companies' agents' PnL, realised and unrealised (average cost). */
  honestAgents: { realizedUsdc: number; unrealizedUsdc: number };
  attackers: AttackerResult[];
  /** The lowest break-even of each strategy (its most profitable setting). */
  best: AttackerResult[];
  epochs: EpochResult[];
  invariants: { name: string; ok: boolean; detail: string }[];
}

export function attackerResult(
  strategy: string,
  params: Record<string, number>,
  companies: string[],
  costBase: bigint,
  earnedWei: bigint,
): AttackerResult {
  const costUsdc = Number(costBase) / 1e6;
  const earnedTokens = Number(earnedWei / 10n ** 12n) / 1e6;
  return {
    strategy,
    params,
    companies,
    costUsdc: round(costUsdc),
    earnedTokens: round(earnedTokens),
    valueUsdc: Object.fromEntries(PRICES.map((p) => [String(p), round(earnedTokens * p)])),
    breakEven: earnedTokens > 0 ? round(Math.max(costUsdc, 0) / earnedTokens, 6) : null,
  };
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

/** The issue's invariants, at the thresholds docs/economics.md states. */
export function invariants(
  attackers: AttackerResult[],
  epochs: EpochResult[],
  minBreakEven = 0.01,
  minHonestShare = 0.9,
) {
  const out: { name: string; ok: boolean; detail: string }[] = [];
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
  const head = ['strategy', 'setting', 'cost USDC', 'tokens', ...PRICES.map((p) => `@${p}`), 'break-even'];
  const row = (a: AttackerResult, mark: string) => [
    `${mark}${a.strategy}`,
    params(a.params),
    a.costUsdc.toFixed(2),
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
    "  (* the strategy's most profitable setting: the lowest break-even; values in USDC at a token price)",
    '',
    ...report.epochs.map(
      (e) =>
        `epoch ${e.epoch}: ${e.participants} companies paid ${e.paidTokens} of ${e.rewardPoolTokens} tokens; honest share ${e.honestShare === null ? '-' : `${(e.honestShare * 100).toFixed(2)}%`}`,
    ),
    '',
    `outside market: ${report.market.pnlUsdc.toFixed(2)} USDC (funded ${report.market.fundedUsdc.toFixed(2)}, worth ${report.market.valueUsdc.toFixed(2)} at the end)`,
    `honest agents' PnL: realised ${report.honestAgents.realizedUsdc.toFixed(2)} USDC, unrealised ${report.honestAgents.unrealizedUsdc.toFixed(2)} USDC`,
    '',
    ...report.invariants.map((i) => `${i.ok ? 'ok  ' : 'FAIL'} ${i.name} (${i.detail})`),
  ];
  return `${lines.join('\n')}\n`;
}
