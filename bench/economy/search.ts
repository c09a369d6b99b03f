// `npm run sim -- --search STRATEGY`: one strategy over its parameter grid, a small run per setting, and its most
// profitable setting. Each setting runs in a world of its own (a fresh service and chain, or the one at --url) with
// the same honest field (`--companies` less one honest companies, the same seed, so the same companies and market)
// and the attacker at that setting beside it: its cards are added to the field, not taken from it, so every setting
// is priced against the same honest companies. The whole grid when it has at most `--budget` settings that fit the
// run's days, else a seeded random sample of that many. Pure but for runSearch.
import { allSettings, cardsOf, type Strategy } from './actor.ts';
import type { AttackerResult, SimReport } from './report.ts';
import { Rng } from './rng.ts';

/** The settings a search runs: every fitting one when they are at most `budget`, else `budget` drawn by the seed. */
export function searchSettings<P extends Record<string, number>>(
  strategy: Strategy<P>,
  { days, budget, seed }: { days: number; budget: number; seed: number },
): P[] {
  const fitting = allSettings(strategy).filter((s) => strategy.fits?.(s, days) ?? true);
  if (fitting.length <= budget) return fitting;
  // A partial Fisher-Yates shuffle on the search's own stream, then back in the grid's order.
  const rng = new Rng(seed).fork(`search ${strategy.name}`);
  const index = fitting.map((_, i) => i);
  for (let i = 0; i < budget; i++) {
    const j = i + Math.floor(rng.next() * (index.length - i));
    [index[i], index[j]] = [index[j]!, index[i]!];
  }
  return index
    .slice(0, budget)
    .sort((a, b) => a - b)
    .map((i) => fitting[i]!);
}

/** One setting's outcome: the attacker's result, and how its field fared. */
export interface SearchRow {
  params: Record<string, number>;
  cards: number;
  /** The attacker's result (undefined when the run failed: `error`). */
  result?: AttackerResult;
  /** The epoch's honest share (the first distributed epoch with a payout). */
  honestShare: number | null;
  /** Tokens a card of the attacker was paid over the mean tokens an honest company was: above 1, a card beats honest work. */
  perCardVsHonest: number | null;
  failed: string[];
  seconds: number;
  error?: string;
}

/** A search's row from one setting's report. */
export function searchRow(
  strategy: Strategy<any>,
  params: Record<string, number>,
  report: SimReport,
): Omit<SearchRow, 'seconds'> {
  const cards = cardsOf(strategy, params);
  const result = report.attackers[0];
  const epoch = report.epochs.find((e) => e.honestShare !== null);
  const honest = (report.companies ?? []).filter((c) => c.honest);
  const sum = (r: Record<string, number>) => Object.values(r).reduce((a, b) => a + b, 0);
  const honestMean = honest.length ? honest.reduce((a, c) => a + sum(c.rewardTokens), 0) / honest.length : 0;
  const perCardVsHonest =
    result && honestMean > 0 && cards > 0 ? Math.round((result.earnedTokens / cards / honestMean) * 1000) / 1000 : null;
  return {
    params,
    cards,
    result,
    honestShare: epoch?.honestShare ?? null,
    perCardVsHonest,
    failed: report.invariants.filter((i) => !i.ok).map((i) => i.name),
  };
}

/** The most profitable row: the lowest break-even; a setting that earned nothing (never pays) only when all did. */
export function bestRow(rows: readonly SearchRow[]): SearchRow | undefined {
  const key = (r: SearchRow) =>
    r.result === undefined ? Number.POSITIVE_INFINITY : (r.result.breakEven ?? Number.MAX_VALUE);
  return rows.reduce<SearchRow | undefined>(
    (best, r) => (best === undefined || key(r) < key(best) ? r : best),
    undefined,
  );
}

const params = (p: Record<string, number>) =>
  Object.entries(p)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');

export function formatSearch(strategy: string, rows: readonly SearchRow[], head: string): string {
  const best = bestRow(rows);
  const table = [
    ['setting', 'cards', 'cost USDC', 'taken USDC', 'tokens', 'break-even', 'per card / honest', 'honest share', 's'],
    ...rows.map((r) => [
      `${r === best ? '* ' : '  '}${params(r.params)}`,
      String(r.cards),
      r.result ? r.result.costUsdc.toFixed(2) : '-',
      r.result ? r.result.takenUsdc.toFixed(2) : '-',
      r.result ? r.result.earnedTokens.toFixed(2) : '-',
      r.error ? 'run failed' : r.result?.breakEven == null ? 'never' : r.result.breakEven.toFixed(6),
      r.perCardVsHonest === null ? '-' : r.perCardVsHonest.toFixed(3),
      r.honestShare === null ? '-' : `${(r.honestShare * 100).toFixed(2)}%`,
      String(r.seconds),
    ]),
  ];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  const lines = [head, '', ...table.map(line)];
  lines.push(
    '  (* the most profitable setting: the lowest break-even; per card / honest: tokens a card of it earned over the',
    "   mean honest company's; honest share: the epoch's, with the attacker's cards added to the field)",
  );
  for (const r of rows) {
    if (r.error) lines.push(`  ${params(r.params)}: the run failed: ${r.error}`);
    else if (r.failed.length) lines.push(`  ${params(r.params)}: invariants failed: ${r.failed.join('; ')}`);
  }
  lines.push(
    best?.result
      ? `most profitable: ${strategy} at ${params(best.params)}: cost ${best.result.costUsdc.toFixed(2)} USDC for ${best.result.earnedTokens.toFixed(2)} tokens, break-even ${best.result.breakEven === null ? 'never' : `${best.result.breakEven} USDC a token`}`
      : `most profitable: none (no setting ran to its end)`,
  );
  return `${lines.join('\n')}\n`;
}

/** What a search runs a setting with: main.ts runSimulation, with the field given. */
export type RunOne = (field: {
  honest: number;
  attackers: { strategy: Strategy<any>; params: Record<string, number> }[];
}) => Promise<SimReport>;

/**
 * Runs each setting of the search one after the other (a run at a time: each starts its own service and chain) and
 * returns its rows. A setting whose run throws is a row with its error, and the search goes on.
 */
export async function runSearch(
  strategy: Strategy<any>,
  settings: readonly Record<string, number>[],
  honest: number,
  run: RunOne,
  log: (line: string) => void = () => {},
): Promise<SearchRow[]> {
  const rows: SearchRow[] = [];
  for (const [i, p] of settings.entries()) {
    log(`search ${strategy.name}: setting ${i + 1} of ${settings.length}: ${params(p)}`);
    const started = Date.now();
    try {
      const report = await run({ honest, attackers: [{ strategy, params: p }] });
      rows.push({ ...searchRow(strategy, p, report), seconds: Math.round((Date.now() - started) / 1000) });
    } catch (err) {
      rows.push({
        params: p,
        cards: cardsOf(strategy, p),
        honestShare: null,
        perCardVsHonest: null,
        failed: [],
        seconds: Math.round((Date.now() - started) / 1000),
        error: (err as Error).message.split('\n')[0]!.slice(0, 300),
      });
    }
  }
  return rows;
}
