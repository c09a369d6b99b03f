// Scheduled work. Each job runs on a cron pattern in every process of the scheduler role, and takes a
// PostgreSQL advisory lock first, so when several replicas run the scheduler only one does the work.
import { Cron } from 'croner';
import { sql } from 'drizzle-orm';
import { finalizedBlock } from '../chain/reorgs.ts';
import { WEBHOOK_DELIVERY_RETENTION_MS } from '../constants.ts';
import { rowsOf, type Tx } from '../db/client.ts';
import { isLockTimeout } from '../db/errors.ts';
import { purgeIdleAgents } from '../domain/agents/store.ts';
import { purgeExpiredIdempotencyKeys } from '../domain/auth/idempotency.ts';
import { purgeExpiredSignatures } from '../domain/auth/wallet-signature.ts';
import { repairCardLocks } from '../domain/companies/card.ts';
import { reconcileCustody } from '../domain/companies/custody.ts';
import { repairAgentDeployments } from '../domain/companies/deploy-suite.ts';
import type { Deps } from '../domain/deps.ts';
import { anchorPendingRounds } from '../domain/engine/anchoring.ts';
import { economyNow } from '../domain/engine/pipeline.ts';
import { detailCutoff, pruneDecisionDetails } from '../domain/engine/retention.ts';
import { failStaleRounds } from '../domain/engine/runner.ts';
import { settleRoundActions } from '../domain/engine/settle-actions.ts';
import { distributeEpoch } from '../domain/epochs/distribute.ts';
import { purgeExpiredEvents } from '../domain/events/store.ts';
import { followReorgedTransactions } from '../domain/reorged-records.ts';
import { takeScoreSnapshot } from '../domain/scores/snapshot.ts';
import { repairTokenLaunches } from '../domain/tokens/launch.ts';
import { recheckAgentWallets, settleAgentWallets } from '../domain/trading/wallets.ts';
import { purgeWebhookDeliveries } from '../domain/webhooks/store.ts';

export interface Job {
  name: string;
  /** Cron pattern, seconds optional (croner syntax), UTC. */
  pattern: string;
  run(tx: Tx, deps: Deps): Promise<unknown>;
  /**
   * The run at start, when it differs: a repair that leaves recent work alone on the schedule (a request may still
   * be doing it) takes all of it at start, since nothing of this process is in flight yet.
   */
  startup?(tx: Tx, deps: Deps): Promise<unknown>;
}

/**
 * Every outbox's transactions mined above the chain's finalized block (CHAIN_FINALITY_DEPTH under the head, else the
 * chain's `finalized` tag) whose block left the chain: sent again (src/chain/outbox.ts recheckMined).
 */
async function recheckOrphaned(deps: Deps): Promise<number> {
  const client = deps.chain.publicClient;
  const depth = deps.config.chainFinalityDepth;
  const head = await client.getBlockNumber({ cacheTime: 0 });
  const finalized = await finalizedBlock(client, depth === undefined ? 'tag' : { depth }, head);
  let orphaned = (await deps.outbox.recheckMined(finalized)).length;
  if (deps.oracleOutbox !== deps.outbox) {
    orphaned += (await deps.oracleOutbox.recheckMined(finalized)).length;
  }
  return orphaned + (await recheckAgentWallets(deps, finalized));
}

export const jobs: Job[] = [
  {
    // Signatures past their replay window, and idempotency keys past their 24 hours (both by the server's clock).
    name: 'purge-signature-replays',
    pattern: '*/5 * * * *',
    run: async (tx, deps) => {
      const now = new Date(deps.now());
      return (await purgeExpiredSignatures(tx, now)) + (await purgeExpiredIdempotencyKeys(tx, now));
    },
  },
  {
    // Platform transactions recorded but not known mined (a crash, an outage): broadcast again and settle.
    name: 'settle-outbox',
    pattern: '* * * * *',
    run: async (_tx, deps) => {
      let settled = await deps.outbox.settlePending();
      // The oracle's outbox (epoch finalize and claims) when it signs with a key of its own.
      if (deps.oracleOutbox !== deps.outbox) settled += await deps.oracleOutbox.settlePending();
      // What agent wallets signed for their trades and withdrawals (domain/trading/wallets.ts).
      settled += await settleAgentWallets(deps);
      // The actions and round lines of finished rounds follow what was just settled.
      settled += await settleRoundActions(deps);
      // Last (a node that cannot say stops only this): transactions seen mined in a block a reorg orphaned since,
      // sent again once, or FAILED with the reason.
      const orphaned = await recheckOrphaned(deps);
      // The actions, round lines, anchorings, finalizations and claims that named an orphaned transaction follow it.
      return settled + orphaned + (await followReorgedTransactions(deps));
    },
  },
  {
    // Companies whose card lock was not confirmed when they were created.
    name: 'repair-card-locks',
    pattern: '* * * * *',
    run: (_tx, deps) => repairCardLocks(deps),
  },
  {
    // Decision rounds left RUNNING by a process that stopped (domain/engine/runner.ts).
    name: 'fail-stale-rounds',
    pattern: '* * * * *',
    run: (_tx, deps) => failStaleRounds(deps, deps.config.roundStaleMs),
  },
  {
    // Complete rounds whose hash is not anchored yet (a chain outage, a crash).
    name: 'anchor-decisions',
    pattern: '* * * * *',
    run: (_tx, deps) => anchorPendingRounds(deps),
  },
  {
    // Token launches left in flight by a crash or a chain outage (domain/tokens/launch.ts).
    name: 'repair-token-launches',
    pattern: '* * * * *',
    run: (_tx, deps) => repairTokenLaunches(deps),
    startup: (_tx, deps) => repairTokenLaunches(deps, { olderThanMs: 0 }),
  },
  {
    // Company agents a deploy-suite left PENDING or DEPLOYING (a crash): identities and wallets finished once.
    name: 'repair-agent-deployments',
    pattern: '* * * * *',
    run: (_tx, deps) => repairAgentDeployments(deps),
    startup: (_tx, deps) => repairAgentDeployments(deps, { olderThanMs: 0 }),
  },
  {
    // Platform events older than the backfill's retention (2 days, docs/api/events.md "Resume";
    // EVENT_BACKFILL_RETENTION_MS). The stream serves only the last EVENT_RETENTION_MS of those kept.
    name: 'purge-events',
    pattern: '* * * * *',
    run: (tx, deps) => purgeExpiredEvents(tx, new Date(deps.now() - deps.config.eventBackfillRetentionMs)),
  },
  {
    // Webhook deliveries finished (delivered, or failed for good) more than WEBHOOK_DELIVERY_RETENTION_MS ago, with
    // their attempts (docs/api/webhooks.md "Deliveries and attempts").
    name: 'purge-webhook-deliveries',
    pattern: '23 * * * *',
    run: (tx, deps) => purgeWebhookDeliveries(tx, new Date(deps.now() - WEBHOOK_DELIVERY_RETENTION_MS)),
  },
  {
    // Finished rounds older than DECISION_DETAIL_RETENTION_DAYS (by the chain's clock, which dates rounds): their
    // phases' notes and agents' budget rows pruned, the decision, hash, outcomes and costs kept
    // (domain/engine/retention.ts; docs/operations.md "Decision records").
    name: 'prune-decision-details',
    pattern: '*/10 * * * *',
    run: async (tx, deps) => {
      const cutoff = detailCutoff(await economyNow(deps), deps.config.decisionDetailRetentionDays);
      return (await pruneDecisionDetails(tx, cutoff)).rounds;
    },
  },
  {
    // Companies with custody whose Roles module differs from the database (a terminated agent's key still a member,
    // a live one not yet, limits saved but not on-chain): brought in step through the platform's manage role
    // (domain/companies/custody.ts reconcileCustody). One batch of reads when nothing differs.
    name: 'reconcile-custody',
    pattern: '* * * * *',
    run: (_tx, deps) => reconcileCustody(deps as Deps & { log?: { warn(o: object, m: string): void } }),
  },
  {
    // Stand-alone agents that never did anything, once STANDALONE_AGENT_RETENTION_MS old (docs/api/agents.md), and
    // creation addresses past the per-address allowance's 24 hours.
    name: 'purge-idle-agents',
    pattern: '17 * * * *',
    run: (tx, deps) => purgeIdleAgents(tx, deps.config.standaloneAgentRetentionMs),
  },
  {
    // The last ended reward epoch, finalized on-chain once (domain/epochs/distribute.ts); one chain read and one
    // database read when it is done already, so running hourly needs no outside cron caller.
    name: 'epoch-distribute',
    pattern: '5 * * * *',
    run: async (_tx, deps) => (deps.chain.contracts.distributor ? distributeEpoch(deps) : undefined),
  },
  {
    // The daily score snapshot at 00:00 UTC of the chain's clock (domain/scores/snapshot.ts): today's, unless it is
    // already taken. Every minute, since the chain's midnight is not the server's (the local chain runs ahead after
    // the demo moves it) and the day's last blocks must be indexed first: the first run after both takes it, later
    // runs find it taken with one chain read and one query.
    name: 'score-snapshot',
    pattern: '* * * * *',
    run: (tx, deps) => takeScoreSnapshot(deps, tx),
  },
];

/**
 * Jobs that also run once at start, so what a crash left unfinished is finished without waiting; score-snapshot
 * catches up today's snapshot when the process was down at 00:00 UTC.
 */
export const startupJobs = [
  'settle-outbox',
  'repair-card-locks',
  'repair-token-launches',
  'repair-agent-deployments',
  'reconcile-custody',
  'fail-stale-rounds',
  'anchor-decisions',
  'score-snapshot',
  'epoch-distribute',
];

export interface JobLogger {
  debug(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * How long a start-up run waits for its job's lock. After a crash the killed process's session can hold it until
 * PostgreSQL notices the closed connection, and the schedule's own run (which leaves recent work alone) can hold it
 * too; the start-up run is the one that takes what the crash left, so it waits rather than skip.
 */
export const STARTUP_LOCK_WAIT_MS = 60_000;

/**
 * Runs a job once. On the schedule it runs only if no other process holds its lock, and returns false when another
 * process is running it. At start it waits for the lock (at most `lockWaitMs`, then throws: the schedule retries),
 * and always runs. PGlite serves one process (its data directory is locked) over one connection, so there the job
 * runs without a transaction: holding one would block the job's own queries made through other handles.
 */
export async function runJobOnce(
  job: Job,
  deps: Deps,
  { atStart = false, lockWaitMs = STARTUP_LOCK_WAIT_MS } = {},
): Promise<boolean> {
  const run = (atStart && job.startup) || job.run;
  if (deps.database.kind === 'pglite') {
    await run(deps.database.db, deps);
    return true;
  }
  const key = `job:${job.name}`;
  return deps.database.db.transaction(async (tx) => {
    if (atStart) {
      await tx.execute(sql.raw(`set local lock_timeout = ${Math.max(1, Math.floor(lockWaitMs))}`));
      try {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${key}))`);
      } catch (err) {
        if (isLockTimeout(err))
          throw new Error(`the lock of job ${job.name} stayed held for ${lockWaitMs} ms at start`);
        throw err;
      }
      await tx.execute(sql`set local lock_timeout = 0`);
    } else {
      const [row] = rowsOf<{ locked: boolean }>(
        await tx.execute(sql`select pg_try_advisory_xact_lock(hashtext(${key})) as locked`),
      );
      if (!row?.locked) return false;
    }
    await run(tx, deps);
    return true;
  });
}

/**
 * runJobOnce, recorded in the metrics (duration, outcome, failures and CHAIN_UNAVAILABLE errors); rethrows.
 * `metrics?.`: the partial deps of some tests have none.
 */
async function runJobMeasured(job: Job, deps: Deps, atStart = false): Promise<boolean> {
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  try {
    const ran = await runJobOnce(job, deps, { atStart });
    deps.metrics?.observeJob(job.name, seconds(), ran ? 'ok' : 'skipped');
    return ran;
  } catch (err) {
    deps.metrics?.observeJob(job.name, seconds(), 'failed');
    deps.metrics?.countRpcError(err, 'job');
    throw err;
  }
}

/** Runs the start-up jobs in order; failures are logged and left to the schedule. */
export async function runStartupJobs(deps: Deps, log: JobLogger): Promise<void> {
  for (const name of startupJobs) {
    const job = jobs.find((j) => j.name === name)!;
    try {
      await runJobMeasured(job, deps, true);
    } catch (err) {
      log.error({ job: name, err }, 'start-up job failed; the schedule retries it');
    }
  }
}

export function startScheduler(deps: Deps, log: JobLogger, list: Job[] = jobs): { stop(): void } {
  const crons = list.map(
    (job) =>
      new Cron(job.pattern, { timezone: 'UTC', protect: true, name: job.name }, async () => {
        const started = Date.now();
        try {
          const ran = await runJobMeasured(job, deps);
          // Routine: every minute for some jobs. At debug level, so a terminal shows what matters.
          if (ran) log.debug({ job: job.name, ms: Date.now() - started }, 'job done');
        } catch (err) {
          log.error({ job: job.name, err }, 'job failed');
        }
      }),
  );
  return {
    stop: () => {
      for (const c of crons) c.stop();
    },
  };
}
