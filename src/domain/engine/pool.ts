// The engine role: rounds run as a continuous pool. A round that ends frees its place at once and the next due
// company takes it, so one slow or hanging company holds one place, never a whole pass. How many run at once is
// sized from the schedule (companies per interval times how long a round takes here, with headroom, more while
// companies are waiting past their slot) and split between the engine replicas alive, which each record
// themselves in PostgreSQL: two replicas each run half, and together twice what one can (each is capped at
// ENGINE_CONCURRENCY, and at the rounds its model calls in flight allow: LLM_MAX_IN_FLIGHT a lane over the lanes
// open, at the calls in flight a round of this process makes on average, so rounds do not queue for a slot). Due companies are claimed in the database (schedule.ts), so no company runs twice. On stop,
// the rounds in progress get ENGINE_SHUTDOWN_GRACE_MS to finish; those still running are then ended as
// interrupted (FAILED, with what they did recorded), so nothing stays RUNNING.
import { createId } from '@paralleldrive/cuid2';
import { lt, sql } from 'drizzle-orm';
import { rowsOf } from '../../db/client.ts';
import { engineReplicas } from '../../db/schema/decisions.ts';
import { anchoringDue, anchorPendingRounds } from './anchoring.ts';
import { economyNow, runRound } from './pipeline.ts';
import { RoundStopped } from './recorder.ts';
import type { RunnerDeps } from './runner.ts';
import { claimDueRounds, scheduleLoad, syncSchedule } from './schedule.ts';

export interface EnginePool {
  /** Rounds running now, and the concurrency the pool is holding to. */
  readonly running: number;
  readonly concurrency: number;
  /** Stops claiming, waits up to the grace for the rounds in progress, then ends the rest as interrupted. */
  stop(): Promise<void>;
}

export interface EnginePoolOptions {
  pollMs: number;
  intervalS: number;
  /** Rounds this process runs at once at most. */
  maxConcurrency: number;
  shutdownGraceMs: number;
  /** How often the schedule takes on new companies (and drops those with no active agent). */
  syncMs?: number;
  /** When an anchoring batch is due: this many rounds wait, or the oldest waited this long (anchoringDue). */
  anchorBatch?: { target?: number; waitMs?: number };
}

type PoolDeps = RunnerDeps & { log: { warn(o: object, m: string): void; debug(o: object, m: string): void } };

/** Seconds a round is assumed to take before this process has timed any (a real model at 2-5 s a call). */
const ROUND_SECONDS_ASSUMED = 20;
/** Headroom over the schedule's steady need: rounds vary, and a late company must catch up. */
const HEADROOM = 1.5;
/** Companies past their slot are caught up within about this long. */
const CATCH_UP_S = 120;
/** Places a process keeps however small the schedule: one hanging company must not hold up the rest. */
const CONCURRENCY_MIN = 4;
/**
 * Model calls a running round has in flight on average before this process has measured any: eleven calls, the
 * seven role calls at once, over five steps in sequence, at 2-5 s a call in a round of about 20 s.
 */
const CALLS_PER_ROUND_ASSUMED = 2;
/** The least a measured average is taken as: a round between its calls (context, execution) still needs a slot soon. */
const CALLS_PER_ROUND_MIN = 0.5;
/** A replica whose heartbeat is older than this many polls is not counted (and its row is removed). */
const REPLICA_STALE_POLLS = 6;

/**
 * The rounds a process's model calls allow at once: the calls its lanes take at once (`limit`, LLM_MAX_IN_FLIGHT a
 * lane, less after 429s) over the calls a round has in flight on average; unbounded with no lane (the built-in model).
 */
export function roundsProviderAllows(o: { limit: number; lanes: number; callsPerRound: number }): number {
  if (o.lanes === 0) return Number.POSITIVE_INFINITY;
  return Math.floor(o.limit / Math.max(CALLS_PER_ROUND_MIN, o.callsPerRound));
}

/**
 * The concurrency a process holds: the schedule's need (companies a second times a round's seconds, with
 * headroom, or what the companies already waiting need to be caught up in CATCH_UP_S, whichever is more), split
 * between the live replicas, at least CONCURRENCY_MIN and at most `max` (ENGINE_CONCURRENCY) and `providerMax` (what
 * the model calls in flight allow, roundsProviderAllows).
 */
export function concurrencyFor(o: {
  scheduled: number;
  due: number;
  intervalS: number;
  roundSeconds: number;
  replicas: number;
  max: number;
  providerMax?: number;
}): number {
  const steady = (o.scheduled / o.intervalS) * o.roundSeconds * HEADROOM;
  const catchUp = (o.due * o.roundSeconds) / CATCH_UP_S;
  const need = Math.ceil(Math.max(steady, catchUp));
  const cap = Math.min(o.max, o.providerMax ?? Number.POSITIVE_INFINITY);
  return Math.min(cap, Math.max(CONCURRENCY_MIN, Math.ceil(need / Math.max(1, o.replicas))));
}

export function startEnginePool(deps: PoolDeps, options: EnginePoolOptions): EnginePool {
  const id = createId();
  const db = deps.database.db;
  const syncMs = options.syncMs ?? 30_000;
  const inFlight = new Set<Promise<void>>();
  const stopping = new AbortController();
  let concurrency = Math.min(options.maxConcurrency, CONCURRENCY_MIN);
  let roundSeconds = ROUND_SECONDS_ASSUMED;
  let timed = 0;
  let callsPerRound = CALLS_PER_ROUND_ASSUMED;
  let sampled = 0;
  let lastSync = 0;
  let finishedSinceAnchor = 0;
  let anchoring: Promise<void> | undefined;
  let claiming: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let running = true;
  /** The tick under way, if any: stop() waits for it, so its replica row is not written back after stop removes it. */
  let ticking: Promise<void> | undefined;

  /** Mean seconds of this process's rounds: the first 20 averaged, then a moving average that follows changes. */
  const timeRound = (seconds: number) => {
    timed++;
    const weight = Math.max(1 / timed, 1 / 20);
    roundSeconds += (seconds - roundSeconds) * weight;
  };

  const launch = (round: Parameters<typeof runRound>[1]) => {
    const started = performance.now();
    const task = runRound(deps, round, { signal: stopping.signal })
      .then(() => {
        timeRound((performance.now() - started) / 1000);
        finishedSinceAnchor++;
      })
      .catch((err) => deps.log.warn({ err, roundId: round.id }, 'decision round crashed'))
      .finally(() => {
        inFlight.delete(task);
        // Its place is free: the next due company takes it now, not at the next poll.
        if (running) void fill();
      });
    inFlight.add(task);
  };

  /** Claims due companies for the free places and starts their rounds. */
  const claimLoop = async () => {
    try {
      while (running) {
        const free = concurrency - inFlight.size;
        if (free <= 0) return;
        const claimed = await claimDueRounds(deps, {
          now: await economyNow(deps),
          intervalS: options.intervalS,
          limit: free,
        });
        // Claimed even as the process begins to stop: they get the grace like the others (stop waits for this).
        for (const round of claimed) launch(round);
        if (claimed.length < free) return;
      }
    } catch (err) {
      deps.log.warn({ err }, 'claiming due decision rounds failed; retried at the next poll');
    }
  };
  /** One claim at a time per process; cleared once settled (never within the call that set it). */
  const fill = (): Promise<void> => {
    claiming ??= claimLoop().finally(() => {
      claiming = undefined;
    });
    return claiming;
  };

  /** Records this replica, counts the live ones, and sizes the concurrency from the schedule. */
  const size = async (now: Date) => {
    await db.execute(sql`
      insert into engine_replicas (id, heartbeat_at, capacity, running)
      values (${id}, ${new Date(deps.now()).toISOString()}::timestamptz, ${options.maxConcurrency}, ${inFlight.size})
      on conflict (id) do update set heartbeat_at = excluded.heartbeat_at, running = excluded.running`);
    const staleBefore = new Date(deps.now() - options.pollMs * REPLICA_STALE_POLLS);
    const [live] = rowsOf<{ n: number }>(
      await db.execute(
        sql`select count(*)::int as n from engine_replicas where heartbeat_at >= ${staleBefore.toISOString()}::timestamptz`,
      ),
    );
    const load = await scheduleLoad(deps, now);
    // The model calls of the running rounds, in flight or waiting for a slot: a moving average a round.
    const calls = deps.models.load?.();
    if (calls && inFlight.size > 0) {
      sampled++;
      callsPerRound +=
        ((calls.inFlight + calls.waiting) / inFlight.size - callsPerRound) * Math.max(1 / (sampled + 1), 1 / 20);
    }
    concurrency = concurrencyFor({
      ...load,
      intervalS: options.intervalS,
      roundSeconds,
      replicas: live?.n ?? 1,
      max: options.maxConcurrency,
      ...(calls && { providerMax: roundsProviderAllows({ ...calls, callsPerRound }) }),
    });
    await db.delete(engineReplicas).where(lt(engineReplicas.heartbeatAt, staleBefore));
  };

  const anchor = () => {
    if (anchoring || finishedSinceAnchor === 0) return;
    // A batch forms by size or by time, whichever comes first: the more rounds together, the less gas each one's
    // anchoring, and no round waits longer than the batch's wait for it.
    const seen = finishedSinceAnchor;
    anchoring = anchoringDue(deps, options.anchorBatch)
      .then(async (due) => {
        if (!due) return;
        finishedSinceAnchor -= seen;
        await anchorPendingRounds(deps);
      })
      .catch((err) => deps.log.warn({ err }, 'anchoring decision rounds failed; the anchor-decisions job retries'))
      .finally(() => {
        anchoring = undefined;
      });
  };

  const tick = async () => {
    try {
      const now = await economyNow(deps);
      if (deps.now() - lastSync >= syncMs) {
        await syncSchedule(deps, now);
        lastSync = deps.now();
      }
      await size(now);
      await fill();
      anchor();
    } catch (err) {
      deps.log.warn({ err }, 'the engine pool tick failed; retried at the next poll');
    } finally {
      if (running) timer = setTimeout(startTick, options.pollMs);
    }
  };
  const startTick = () => {
    ticking = tick().finally(() => {
      ticking = undefined;
    });
  };
  timer = setTimeout(startTick, 0);

  return {
    get running() {
      return inFlight.size;
    },
    get concurrency() {
      return concurrency;
    },
    async stop() {
      running = false;
      clearTimeout(timer);
      // One deadline for everything the engine waits for, counted from the stop: the tick and the claim under way
      // (a chain read that does not answer), the rounds, and the anchoring in flight.
      const deadline = performance.now() + options.shutdownGraceMs;
      const until = <T>(work: Promise<T>) => {
        let graceTimer: NodeJS.Timeout | undefined;
        const grace = new Promise<'grace'>((resolve) => {
          graceTimer = setTimeout(() => resolve('grace'), Math.max(0, deadline - performance.now()));
        });
        return Promise.race([work.then(() => 'done' as const), grace]).finally(() => clearTimeout(graceTimer));
      };
      const all = async () => {
        await ticking;
        await claiming;
        await Promise.all([...inFlight]);
      };
      if ((await until(all())) === 'grace') {
        deps.log.warn(
          { rounds: inFlight.size, graceMs: options.shutdownGraceMs },
          'decision rounds still running at shutdown: ending them as interrupted',
        );
        stopping.abort(
          new RoundStopped(
            'shutdown',
            `interrupted: the engine process stopped (shutdown) and the round did not finish within ${options.shutdownGraceMs} ms`,
          ),
        );
        // Each round now ends at once (an action waiting on the chain is left behind, execution.ts), and a round
        // claimed meanwhile ends before its first phase; a tick or claim still waits for one chain read at most.
        await all();
      }
      // An anchoring batch waiting for its receipt is not waited for past the deadline: the anchor-decisions job
      // and settle-outbox finish it.
      if (anchoring && (await until(anchoring)) === 'grace') {
        deps.log.warn({}, 'an anchoring batch is still in flight at shutdown; the anchor-decisions job finishes it');
      }
      await db.delete(engineReplicas).where(sql`${engineReplicas.id} = ${id}`);
    },
  };
}
