// The demo's simulated days (days-plan.ts): market traders funded once, then day after day on the chain's clock the
// market trades at the day's trading hours, the engine runs the scheduled rounds that fall due, and the day's score
// snapshot is taken just after the chain's midnight. Each simulated day leaves one snapshot, so the days already
// done are counted from a demo company's score history and a second run adds only the days missing. The epoch's
// last day is traded the same way before the clock moves past the epoch's end (stepClosingDay).
import type { Address } from 'viem';
import { erc20Abi } from 'viem';
import { chainTime } from '../../src/chain/time.ts';
import { type Ctx, cron, DemoError, rpc, send } from './context.ts';
import {
  dayStart,
  MARKET_FUNDER,
  MARKET_TRADER_INDICES,
  MARKET_TRADER_USDC,
  marketOrders,
  nextMidnight,
  slotsAhead,
  TRADING_HOURS,
} from './days-plan.ts';
import { buy, sell } from './market.ts';
import { shortfall, units } from './units.ts';

const MIN_GAS_WEI = 10n ** 18n;
const GAS_GRANT_WEI = 100n * 10n ** 18n;
/** How long the demo waits for the engine to run a slot's scheduled rounds, and for the indexer before a snapshot. */
const ROUNDS_WAIT_MS = 60_000;
/** A company whose last round is older than this is due on the default schedule (DECISION_INTERVAL_S = 1 h). */
const ROUND_DUE_S = 2 * 3_600;
const SNAPSHOT_WAIT_MS = 60_000;

/** Market traders: gas (anvil_setBalance, local chain only) and USDC from dev account 9, topped up to plan. */
export async function stepMarketTraders(ctx: Ctx) {
  let funded = 0;
  for (const index of MARKET_TRADER_INDICES) {
    const address = ctx.account(index).address;
    if ((await ctx.client.getBalance({ address })) < MIN_GAS_WEI) {
      await rpc(ctx, 'anvil_setBalance', [address, `0x${GAS_GRANT_WEI.toString(16)}`]);
    }
    const balance = await ctx.client.readContract({
      address: ctx.contracts.usdc,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [address],
    });
    const missing = shortfall(balance, units(MARKET_TRADER_USDC, 6));
    if (missing === 0n) continue;
    ctx.progress.step(`market traders: funding ${address.slice(0, 10)}`);
    await send(ctx, MARKET_FUNDER, 'fund a market trader', {
      address: ctx.contracts.usdc,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [address, missing],
    });
    funded++;
  }
  ctx.summary.push(
    `market traders: ${MARKET_TRADER_INDICES.length} wallets linked to no company (${funded} topped up to ${MARKET_TRADER_USDC} USDC now)`,
  );
}

/** Moves the chain's clock to `at` (epoch seconds) and mines a block there. */
export async function moveClockTo(ctx: Ctx, at: number) {
  await rpc(ctx, 'evm_setNextBlockTimestamp', [at]);
  await rpc(ctx, 'evm_mine', []);
}

const chainNow = async (ctx: Ctx) => Number(await chainTime(ctx.client));

const iso = (t: number) => new Date(t * 1000).toISOString().slice(0, 16).replace('T', ' ');

/** The demo companies with a token, and its address. */
function tokens(ctx: Ctx): { symbol: string; token: Address }[] {
  return ctx.plan
    .filter((c) => c.token && ctx.companies.get(c.slug)?.tokenAddress)
    .map((c) => ({
      symbol: c.token!.symbol,
      token: ctx.companies.get(c.slug).tokenAddress as Address,
    }));
}

/**
 * One slot's market orders in every token; answers the trades sent. The agents' rounds trade the same tokens at the
 * same time, so a price can move between a quote and its trade: a trade that reverts on its slippage bound is quoted
 * and sent once more, then left out.
 */
async function tradeSlot(ctx: Ctx, day: number, slot: number): Promise<number> {
  let sent = 0;
  for (const { symbol, token } of tokens(ctx)) {
    for (const order of marketOrders(symbol, day, slot)) {
      const place = async () => {
        if (order.side === 'sell') return sell(ctx, order.trader, token, BigInt(order.sellPct!));
        await buy(ctx, order.trader, token, order.usdc!);
        return true;
      };
      try {
        if (await place().catch((err) => (isRevert(err) ? place() : Promise.reject(err)))) sent++;
      } catch (err) {
        if (!isRevert(err)) throw err;
        ctx.progress.note(`${symbol}: a market ${order.side} reverted twice (the price moved); left out`);
      }
    }
  }
  return sent;
}

const isRevert = (err: unknown) => err instanceof DemoError && /reverted/.test(err.message);

/**
 * Waits until the staffed demo companies that are due at `at` have run their SCHEDULED round: a company is due once
 * its last round is more than ROUND_DUE_S old (slots come every DECISION_INTERVAL_S, an hour by default, and the
 * next one at most one and a half intervals after a round), and its round is dated at or after `at` by the chain's
 * clock. Answers false on timeout: a service without the engine role runs no scheduled round, and the demo then
 * stops waiting for them.
 */
export async function roundsRun(ctx: Ctx, at: number): Promise<boolean> {
  const ids = ctx.plan
    .map((c) => ctx.companies.get(c.slug))
    .filter((c) => c?.agents.some((a: any) => a.status === 'ACTIVE'))
    .map((c) => c.id as string);
  const deadline = Date.now() + ROUNDS_WAIT_MS;
  let waiting = ids;
  for (;;) {
    const next: string[] = [];
    for (const id of waiting) {
      const { rounds } = (await ctx.api.data('GET', `/api/companies/${id}/decisions`)) as { rounds: any[] };
      const latest = Math.max(0, ...rounds.map((r) => Date.parse(r.createdAt) / 1000));
      const ran = rounds.some((r) => r.trigger === 'SCHEDULED' && Date.parse(r.createdAt) >= at * 1000);
      const due = latest < at - ROUND_DUE_S;
      if ((due && !ran) || rounds.some((r) => r.status === 'RUNNING')) next.push(id);
    }
    waiting = next;
    if (waiting.length === 0) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/**
 * The snapshot of the chain's current date, once the indexer has applied the day before it and its last block is
 * finalized (CHAIN_FINALITY_DEPTH blocks under the head): the local chain mines only on demand, so each wait mines
 * one empty block.
 */
export async function snapshotToday(ctx: Ctx, secret: string): Promise<{ date: string; status: string }> {
  const deadline = Date.now() + SNAPSHOT_WAIT_MS;
  let d = await cron(ctx, '/api/cron/score-snapshot', secret);
  while (d.status === 'waiting' && Date.now() < deadline) {
    await rpc(ctx, 'evm_mine', []);
    await new Promise((resolve) => setTimeout(resolve, 500));
    d = await cron(ctx, '/api/cron/score-snapshot', secret);
  }
  if (d.status === 'waiting') {
    throw new DemoError(
      `the score snapshot of ${d.date} still waits for the service's indexer (${d.reason ?? (d.waitingFor ?? []).join(', ')}); run npm run demo again to go on`,
    );
  }
  return d;
}

/** Agent actions of the plan's latest rounds that the daily gas budget refused (429 GAS_BUDGET_EXCEEDED). */
async function gasRefusals(ctx: Ctx): Promise<number> {
  let refused = 0;
  for (const c of ctx.plan) {
    const company = ctx.companies.get(c.slug);
    if (!company) continue;
    const { rounds } = (await ctx.api.data('GET', `/api/companies/${company.id}/decisions`)) as { rounds: any[] };
    for (const r of rounds) {
      refused += (r.actionsExecuted as string[]).filter((a) =>
        /refused: The platform pays this company's gas/.test(a),
      ).length;
    }
  }
  return refused;
}

/**
 * The demo's first day (epoch seconds of its UTC start, by the chain's clock): the day of the first trade in the
 * first demo token, or the chain's current day before any trade.
 */
async function firstDay(ctx: Ctx): Promise<number> {
  const first = ctx.plan.find((c) => c.token && ctx.companies.get(c.slug)?.tokenAddress);
  if (first) {
    const { candles } = await ctx.api.data('GET', `/api/companies/${first.slug}/token/candles?interval=1d&limit=1000`);
    if (candles.length > 0) return Number(candles[0].time);
  }
  return dayStart(await chainNow(ctx));
}

/** What a run of market days did so far, and whether the engine ran the last slot's scheduled rounds. */
interface DayRun {
  trades: number;
  slots: number;
  /** False once the service ran no scheduled round after a slot: the demo stops waiting for them. */
  engineRuns: boolean;
}

/**
 * The chain's day holding `now` (simulated day `(dayStart(now) - first) / 86_400` of the market's plan): at each of
 * its trading slots still ahead, the chain's clock moves there, the market trades and the scheduled rounds that fall
 * due run. `label` names the day in the progress bar.
 */
async function tradeDay(ctx: Ctx, first: number, now: number, label: string, run: DayRun) {
  const day = (dayStart(now) - first) / 86_400;
  for (const at of slotsAhead(now)) {
    const slot = TRADING_HOURS.indexOf(((at - dayStart(at)) / 3_600) as (typeof TRADING_HOURS)[number]);
    ctx.progress.step(`${label}: ${iso(at)} (chain time), the market trades`);
    await moveClockTo(ctx, at);
    run.trades += await tradeSlot(ctx, day, slot);
    run.slots++;
    if (run.engineRuns) {
      ctx.progress.step(`${label}: ${iso(at)}, the scheduled rounds run`);
      run.engineRuns = await roundsRun(ctx, at);
      if (!run.engineRuns) {
        ctx.notes.push(
          `the service ran no scheduled round within ${ROUNDS_WAIT_MS / 1000} s of the chain's clock passing a slot (does it run the engine role, on the default DECISION_INTERVAL_S?); the demo stopped waiting for them`,
        );
      }
    }
  }
}

/**
 * Simulated days on the chain's clock, from the demo's first day (the launch day) through `ctx.options.days` days:
 * on each, the market trades at the trading hours left in the chain's day, the scheduled rounds of each slot run,
 * and the day closes with its score snapshot just past the chain's midnight. Days the chain's clock has passed are
 * done, so a second run adds only the days missing (none with the same --days).
 */
export async function stepDays(ctx: Ctx) {
  const days = ctx.options.days;
  if (!ctx.options.secret) {
    ctx.notes.push(
      `no scheduler secret known (--secret, CRON_SECRET, or a local npm start's ./data/cron-secret): the demo cannot take its daily score snapshots, so it simulated no days`,
    );
    return;
  }
  const first = await firstDay(ctx);
  const end = first + days * 86_400;
  const startedAt = await chainNow(ctx);
  if (dayStart(startedAt) >= end) {
    ctx.summary.push(`simulated days: ${days} already (the chain's clock is past them), none added`);
    return;
  }
  let added = 0;
  const run: DayRun = { trades: 0, slots: 0, engineRuns: true };
  for (let now = startedAt; dayStart(now) < end; now = await chainNow(ctx)) {
    const label = `day ${(dayStart(now) - first) / 86_400 + 1} of ${days}`;
    await tradeDay(ctx, first, now, label, run);
    ctx.progress.step(`${label}: past the chain's midnight, the score snapshot`);
    await moveClockTo(ctx, nextMidnight(await chainNow(ctx)));
    await snapshotToday(ctx, ctx.options.secret);
    added++;
  }
  const refused = await gasRefusals(ctx);
  if (refused > 0) {
    ctx.notes.push(
      `${refused} agent action(s) in the latest rounds were refused by the daily gas budget (COMPANY_GAS_BUDGET, a chain day's gas for each company: docs/decisions.md "Costs the platform pays"); start the service with a larger one for busier days`,
    );
  }
  const moved = (await chainNow(ctx)) - startedAt;
  ctx.summary.push(
    `simulated days: ${added} added (${run.slots} trading slots, ${run.trades} market trades; the chain's clock moved ${(moved / 86_400).toFixed(1)} days), each closed by its score snapshot`,
  );
}

/**
 * The epoch's last market day: the demo moves the chain's clock to `until` last (just past the reward epoch's end),
 * and the snapshot taken there, of the chain's day before it, is the latest one, the Fortune List's default. So that
 * list ranks a market day too, not a quiet one: the clock moves to the start of that day (when the simulated days
 * ended before it; the days between stay quiet, without market or rounds), the day is traded as the simulated days
 * are (the market's slots, the scheduled rounds), then the clock moves to `until` and that day's snapshot is taken.
 * Answers the snapshot's date. Without a scheduler secret the clock only moves (no snapshot could be taken).
 */
export async function stepClosingDay(ctx: Ctx, until: number): Promise<string | undefined> {
  if (!ctx.options.secret) {
    await moveClockTo(ctx, until);
    return undefined;
  }
  const closing = dayStart(until) - 86_400;
  const startedAt = await chainNow(ctx);
  const run: DayRun = { trades: 0, slots: 0, engineRuns: true };
  if (dayStart(startedAt) <= closing) {
    const first = await firstDay(ctx);
    await tradeDay(ctx, first, Math.max(startedAt, closing), `the epoch's last day, ${iso(closing).slice(0, 10)}`, run);
  }
  ctx.progress.step("the epoch's end: the last day's score snapshot");
  await moveClockTo(ctx, until);
  const { date } = await snapshotToday(ctx, ctx.options.secret);
  ctx.summary.push(
    `the epoch's last day (${iso(closing).slice(0, 10)}): ${run.slots} trading slots, ${run.trades} market trades; its score snapshot ${date} is the Fortune List's latest`,
  );
  return date;
}
