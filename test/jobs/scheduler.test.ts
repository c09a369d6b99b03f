// Scheduled jobs run under an advisory lock: of two processes starting one job together, one does the work.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_TTL_MS } from '../../src/constants.ts';
import type { Container } from '../../src/container.ts';
import type { Database } from '../../src/db/client.ts';
import { idempotencyKeys, signatureReplays } from '../../src/db/schema/auth.ts';
import { type Job, jobs, runJobOnce } from '../../src/jobs/scheduler.ts';
import { testDatabases } from '../helpers/db.ts';

describe.each(testDatabases)('scheduler on $name', ({ name, open }) => {
  let database: Database;
  let container: Container;
  beforeAll(async () => {
    database = await open();
    container = { database, now: () => Date.parse('2026-01-01T00:10:00Z') } as Container;
  });
  afterAll(async () => {
    await database?.close();
  });

  it('purge-signature-replays deletes expired replay entries only', async () => {
    await database.db.insert(signatureReplays).values([
      { requestHash: 'old', expiresAt: new Date('2026-01-01T00:09:59Z') },
      { requestHash: 'live', expiresAt: new Date('2026-01-01T00:10:01Z') },
    ]);
    const purge = jobs.find((j) => j.name === 'purge-signature-replays')!;
    expect(await runJobOnce(purge, container)).toBe(true);
    const left = await database.db.select().from(signatureReplays);
    expect(left.map((r) => r.requestHash)).toEqual(['live']);
  });

  it('purge-signature-replays also deletes idempotency keys 24 hours old (by the server clock), and only those', async () => {
    const now = container.now();
    const row = (key: string, ageMs: number) => ({
      signer: '0x0000000000000000000000000000000000000001',
      key,
      fingerprint: 'f',
      createdAt: new Date(now - ageMs),
      lockedAt: null,
      status: 200,
      headers: {},
      body: '{}',
    });
    await database.db
      .insert(idempotencyKeys)
      .values([row('expired', IDEMPOTENCY_TTL_MS), row('kept', IDEMPOTENCY_TTL_MS - 1)]);
    const purge = jobs.find((j) => j.name === 'purge-signature-replays')!;
    expect(await runJobOnce(purge, container)).toBe(true);
    const left = await database.db.select().from(idempotencyKeys);
    expect(left.map((r) => r.key)).toEqual(['kept']);
  });

  // PGlite is one connection: transactions never overlap there, so the race exists only on a server.
  it.runIf(name === 'postgres')('runs a job in one process when two start it together', async () => {
    let runs = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const slow: Job = {
      name: 'test-slow',
      pattern: '* * * * *',
      run: async () => {
        runs++;
        await gate;
      },
    };
    const first = runJobOnce(slow, container);
    await new Promise((r) => setTimeout(r, 200));
    const second = await runJobOnce(slow, container);
    release();
    expect(await first).toBe(true);
    expect(second).toBe(false);
    expect(runs).toBe(1);
  });

  // After a crash, the killed process's session may still hold a job's lock for a while, or the schedule's own run
  // may hold it (one that leaves recent work alone): the start-up run must not be skipped, or what the crash left
  // waits for the next periodic run. It waits for the lock and then does its work.
  it.runIf(name === 'postgres')('runs a start-up job once the lock another session holds is released', async () => {
    let startupRuns = 0;
    const job: Job = {
      name: 'test-startup-wait',
      pattern: '* * * * *',
      run: async () => {},
      startup: async () => {
        startupRuns++;
      },
    };
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const holder = database.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${'job:test-startup-wait'}))`);
      await gate;
    });
    await new Promise((r) => setTimeout(r, 100));
    const atStart = runJobOnce(job, container, { atStart: true });
    await new Promise((r) => setTimeout(r, 500));
    expect(startupRuns, 'it waits while the lock is held').toBe(0);
    release();
    await holder;
    expect(await atStart).toBe(true);
    expect(startupRuns).toBe(1);
  });

  it.runIf(name === 'postgres')(
    'fails a start-up job whose lock stays held past the wait, for the schedule to retry',
    async () => {
      const job: Job = { name: 'test-startup-held', pattern: '* * * * *', run: async () => {} };
      let release!: () => void;
      const gate = new Promise<void>((r) => {
        release = r;
      });
      const holder = database.db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${'job:test-startup-held'}))`);
        await gate;
      });
      await new Promise((r) => setTimeout(r, 100));
      try {
        await expect(runJobOnce(job, container, { atStart: true, lockWaitMs: 300 })).rejects.toThrow(/lock/i);
      } finally {
        release();
        await holder;
      }
    },
  );
});
