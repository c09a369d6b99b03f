// The daily score snapshot (docs/api/fortune.md): every company's five raw values, their 0-100 scores against the
// larger of the best company of the snapshot and the component's floor, the referral boost, the overall score and
// the rank, written for one UTC date D of the chain's clock (covering the day [D - 24 h, D)); then each company's
// platformScore, and the `score` and `season` events.
//
// Everything comes from the database, once the indexer has applied the day and its blocks are finalized
// (readiness.ts), and no row of a block above a scored stream's finalized block is read: a few set-based
// statements whatever the number of companies. One INSERT ... SELECT computes the raw values with grouped
// subqueries (the time-weighted treasury, twab.ts; PnL under the trading rules, trading.ts; volume netted per
// trader, capped and without the company's own wallets, volume.ts), the best with window functions and the rank
// with row_number(); one statement sets the changed platform scores and publishes their `score` events. A date is
// taken once: a later run finds it done.
import { sql } from 'drizzle-orm';
import { epochAt } from '../../chain/contracts/distributor.ts';
import { holdStreamLocks } from '../../chain/indexer.ts';
import { chainTime } from '../../chain/time.ts';
import { AGENT_ROLES } from '../../constants.ts';
import { rowsOf, type Tx } from '../../db/client.ts';
import { scoreSnapshots } from '../../db/schema/scores.ts';
import { isChainUnavailable } from '../../errors.ts';
import { linkedWallets } from '../companies/linked.ts';
import { applyPlatformScores } from '../companies/store.ts';
import type { Deps as DomainDeps } from '../deps.ts';
import { publishEvent } from '../events/store.ts';
import { companyTokens } from '../tokens/company-tokens.stream.ts';
import { treasuryTransfers } from '../treasuries/treasury-transfers.stream.ts';
import { DAY_MS, snapshotCovers, startOfDate, utcDateOf } from './dates.ts';
import {
  ACTIVITY_WINDOW_DAYS,
  COMPLETENESS_ITEMS,
  MONEY_LOG_UNIT,
  REFERRAL_BOOST_MAX,
  REFERRAL_BOOST_PER_COMPANY,
  SCORE_DECIMALS,
  SCORE_WEIGHTS,
} from './formula.ts';
import { type DayReadiness, dayReadiness, type StreamProgress, scoredProgress, scoredStreams } from './readiness.ts';
import { countedPnl } from './trading.ts';
import { treasuryTwab } from './twab.ts';
import { countedVolume, dayPositions } from './volume.ts';

type Deps = Pick<DomainDeps, 'chain' | 'config'>;
type Floors = DomainDeps['config']['scoreFloors'];

/** Held (per transaction) while a snapshot is written, so two callers never write one date together. */
const SNAPSHOT_LOCK = 'score-snapshot';

export interface SnapshotResult {
  date: string;
  /**
   * `taken`: written now; `exists`: the date was already done; `empty`: no company to rank; `waiting`: the chain's
   * day has ended but the indexer has not applied all of it yet (the job takes it at a later run).
   */
  status: 'taken' | 'exists' | 'empty' | 'waiting';
  /** Companies in the snapshot. */
  companies: number;
  /** Companies whose platformScore changed, each with a `score` event. */
  changed: number;
  /** The chain's latest block when the snapshot was taken; null when the chain did not answer. */
  block: bigint | null;
  /** While `waiting`: the indexer streams that have not applied the day's last blocks, or not finalized them. */
  waitingFor?: string[];
  /** While `waiting`: why, in words, one sentence per stream. */
  reason?: string;
}

/**
 * The last block whose rows the snapshot reads, per table family: a scored stream's finalized block (readiness.ts).
 * Null: the stream has never applied a batch in this database (rows written otherwise, a seed or a test's fixtures,
 * are read as they are).
 */
export interface FinalBlocks {
  /** token_trades, and the launch that makes a token count as launched (company-tokens). */
  trades: bigint | null;
  /** treasury_observations (treasury-transfers). */
  treasury: bigint | null;
}

/**
 * Takes the snapshot of `date` unless it exists. Without a date: today's by the chain's clock, once the scored
 * streams have applied every block of the day before and those blocks are finalized (else `waiting`); a date given
 * (a backfill, an operator) is taken from what is indexed and final. Either way no row of a block above a scored
 * stream's finalized block is read. `db` may be a transaction (the scheduler's, holding the job lock) or the
 * database; the writes run in a transaction of their own inside it, so a crash leaves the date either whole or absent.
 */
export async function takeScoreSnapshot(deps: Deps, db: Tx, date?: string): Promise<SnapshotResult> {
  let day = date;
  let waiting: DayReadiness = { waitingFor: [], reasons: [], progress: new Map() };
  if (day === undefined) {
    day = utcDateOf(Number(await chainTime(deps.chain.publicClient)) * 1000);
    if (!(await snapshotExists(db, day))) waiting = await dayReadiness(deps, db, startOfDate(day));
  }
  const result = (status: SnapshotResult['status'], extra: Partial<SnapshotResult> = {}): SnapshotResult => ({
    date: day,
    status,
    companies: 0,
    changed: 0,
    block: null,
    ...extra,
  });
  if (await snapshotExists(db, day)) return result('exists');
  if (waiting.waitingFor.length > 0) {
    return result('waiting', { waitingFor: waiting.waitingFor, reason: waiting.reasons.join('; ') });
  }
  const block = await deps.chain.publicClient.getBlockNumber({ cacheTime: 0 }).catch((err: unknown) => {
    if (isChainUnavailable(err)) return null;
    throw err;
  });
  const epoch = await snapshotEpoch(deps, day);

  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${SNAPSHOT_LOCK}))`);
    // These few statements each plan a whole day's work: compiling them (JIT) cost about a second at 100,000
    // companies and gained nothing back (docs/benchmarks.md).
    await tx.execute(sql`set local jit = off`);
    if (await snapshotExists(tx, day)) return result('exists');
    // No batch nor rollback of a scored stream commits while the snapshot reads its rows: a reorg undoing a whole
    // batch could otherwise move a stream back below the day between the check below and the insert.
    await holdStreamLocks(tx, scoredStreams(deps.chain));
    const progress = await scoredProgress(deps.chain, tx);
    if (date === undefined) {
      const back = movedBack(progress, waiting.progress);
      if (back.length > 0) {
        return result('waiting', {
          waitingFor: back,
          reason: back.map((name) => `${name}: a reorg moved it back while the snapshot was taken`).join('; '),
        });
      }
    }
    const final: FinalBlocks = {
      trades: progress.get(companyTokens.name)?.final ?? null,
      treasury: progress.get(treasuryTransfers.name)?.final ?? null,
    };
    await tx.execute(insertSnapshot(day, block, final, deps.config.scoreFloors, deps.config.tradingMinHoldS));
    const [summary] = rowsOf<{ companies: number; leader: string | null }>(
      await tx.execute(sql`
        select count(*)::integer as companies,
          min(company_id) filter (where rank = 1) as leader
        from ${scoreSnapshots} where snapshot_date = ${day}::date`),
    );
    if (!summary || summary.companies === 0 || !summary.leader) return result('empty', { block });

    // A snapshot of an earlier date (a backfill) must not move the scores back: platformScore is the latest overall.
    const [later] = rowsOf<{ later: boolean }>(
      await tx.execute(
        sql`select exists (select 1 from ${scoreSnapshots} where snapshot_date > ${day}::date) as later`,
      ),
    );
    const changed = later?.later ? 0 : await applyPlatformScores(tx, day);
    // A season event belongs to no one company, but the event log needs one: the snapshot's leader (rank 1).
    await publishEvent(tx, {
      type: 'season',
      companyId: summary.leader,
      data: { kind: 'snapshot', epoch, date: day, companies: summary.companies },
    });
    return result('taken', { block, companies: summary.companies, changed });
  });
}

/**
 * The reward epoch a snapshot counts toward: the one whose window holds the snapshot's 00:00 UTC (as epoch scores
 * pick their dates, epochs/scores.ts). Null before the first epoch, and when the chain or the distributor cannot
 * say: the snapshot does not wait for it.
 */
async function snapshotEpoch(deps: Deps, day: string): Promise<number | null> {
  if (!deps.chain.contracts.distributor) return null;
  return epochAt(deps, BigInt(startOfDate(day) / 1000)).catch((err: unknown) => {
    if (isChainUnavailable(err)) return null;
    throw err;
  });
}

async function snapshotExists(db: Tx, date: string): Promise<boolean> {
  const [row] = rowsOf<{ done: boolean }>(
    await db.execute(sql`select exists (select 1 from ${scoreSnapshots} where snapshot_date = ${date}::date) as done`),
  );
  return row?.done === true;
}

/**
 * A money component against the larger of the best company and the floor (base units): 100 * ln(1 + x / unit) /
 * ln(1 + max(best, floor) / unit), 0 for x <= 0 (a loss earns no trading points). Rounded half away from zero.
 */
const moneyScore = (column: string, floor: bigint) => {
  const log = (value: string) => `ln(1 + ${value}::float8 / ${MONEY_LOG_UNIT})`;
  const scale = `greatest(max(${column}) over (), ${floor})`;
  return `round((case when ${column} <= 0 then 0
      else 100 * ${log(column)} / ${log(scale)} end)::numeric, ${SCORE_DECIMALS})`;
};

/** A count against the larger of the best company and the floor: 100 * x / max(best, floor). */
const countScore = (column: string, floor: number) => `round((case when ${column} <= 0 then 0
      else 100 * ${column}::float8 / greatest(max(${column}) over (), ${floor}) end)::numeric, ${SCORE_DECIMALS})`;

/** The streams whose final block is now below the one the readiness check saw (a reorg undid a batch meanwhile). */
function movedBack(now: Map<string, StreamProgress>, seen: Map<string, StreamProgress>): string[] {
  return [...seen].filter(([name, p]) => (now.get(name)?.final ?? -1n) < p.final).map(([name]) => name);
}

/** A company's launch counts once its block is finalized (a launch recorded without its block counts as it is). */
const launchedBy = (finalBlock: bigint | null) =>
  finalBlock === null
    ? sql`true`
    : sql`(c.token_launch_block is null or c.token_launch_block <= ${finalBlock.toString()}::bigint)`;

/** The one statement that computes and writes every company's row of the snapshot. */
function insertSnapshot(date: string, block: bigint | null, final: FinalBlocks, floors: Floors, minHoldS: number) {
  const { from: dayStartIso, to: atIso } = snapshotCovers(date);
  const weekStartIso = new Date(startOfDate(date) - ACTIVITY_WINDOW_DAYS * DAY_MS).toISOString();
  const roles = sql.raw(AGENT_ROLES.map((r) => `'${r}'`).join(', '));
  const w = SCORE_WEIGHTS;
  return sql`
    with
    treasury (company_id, balance) as (${treasuryTwab(dayStartIso, atIso, final.treasury)}),
    linked as (${linkedWallets()}),
    positions as (${dayPositions(dayStartIso, atIso, final.trades)}),
    volume as (${countedVolume()}),
    pnl as (${countedPnl(dayStartIso, atIso, minHoldS, final.trades)}),
    activity as (
      select company_id, count(*)::integer as rounds from decision_rounds
      where status = 'COMPLETE' and trigger = 'SCHEDULED'
        and created_at >= ${weekStartIso}::timestamptz and created_at < ${atIso}::timestamptz
      group by company_id
    ),
    roles as (
      select company_id, count(distinct role)::integer as filled from agents
      where company_id is not null and status <> 'TERMINATED' and role in (${roles})
      group by company_id
    ),
    referrals as (
      select referrer_company_id as company_id, count(*)::integer as referred from companies
      where referrer_company_id is not null
      group by referrer_company_id
    ),
    raw as (
      select c.id, c.category, c.league, c.created_at,
        coalesce(treasury.balance, 0) as treasury_raw,
        coalesce(pnl.amount, 0) as trading_raw,
        coalesce(volume.amount, 0) as volume_raw,
        coalesce(activity.rounds, 0) as activity_raw,
        ((coalesce(btrim(c.description), '') <> '')::integer
          + (coalesce(btrim(c.logo_url), '') <> '')::integer
          + (c.treasury_address is not null)::integer
          + (c.token_status <> 'PRE_PUBLIC' and ${launchedBy(final.trades)})::integer
          + coalesce(roles.filled, 0))::float8 / ${sql.raw(String(COMPLETENESS_ITEMS.length))} as completeness_raw,
        least(${sql.raw(String(REFERRAL_BOOST_MAX))},
          ${sql.raw(String(REFERRAL_BOOST_PER_COMPANY))} * coalesce(referrals.referred, 0)) as referral_boost
      from companies c
      left join treasury on treasury.company_id = c.id
      left join pnl on pnl.company_id = c.id
      left join volume on volume.company_id = c.id
      left join activity on activity.company_id = c.id
      left join roles on roles.company_id = c.id
      left join referrals on referrals.company_id = c.id
    ),
    components as (
      select raw.*,
        ${sql.raw(moneyScore('treasury_raw', floors.treasury))} as treasury_score,
        ${sql.raw(moneyScore('trading_raw', floors.trading))} as trading_score,
        ${sql.raw(moneyScore('volume_raw', floors.volume))} as volume_score,
        ${sql.raw(countScore('activity_raw', floors.activity))} as activity_score,
        round((100 * completeness_raw)::numeric, ${sql.raw(String(SCORE_DECIMALS))}) as completeness_score
      from raw
    ),
    scored as (
      select components.*,
        round((${sql.raw(String(w.treasury))} * treasury_score + ${sql.raw(String(w.trading))} * trading_score
          + ${sql.raw(String(w.volume))} * volume_score + ${sql.raw(String(w.activity))} * activity_score
          + ${sql.raw(String(w.completeness))} * completeness_score) * (1 + referral_boost), ${sql.raw(String(SCORE_DECIMALS))}) as overall
      from components
    )
    insert into ${scoreSnapshots} (snapshot_date, company_id, category, league, treasury_raw, trading_raw,
      volume_raw, activity_raw, completeness_raw, treasury_score, trading_score, volume_score, activity_score,
      completeness_score, referral_boost, overall, rank, league_rank, treasury_block)
    select ${date}::date, id, category, league, treasury_raw, trading_raw, volume_raw, activity_raw,
      completeness_raw, treasury_score, trading_score, volume_score, activity_score, completeness_score,
      referral_boost, overall,
      row_number() over (order by overall desc, created_at asc, id asc),
      row_number() over (partition by league order by overall desc, created_at asc, id asc),
      ${block === null ? null : block.toString()}::bigint
    from scored
    on conflict (snapshot_date, company_id) do nothing`;
}
