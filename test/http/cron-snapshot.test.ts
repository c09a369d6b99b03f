// POST /api/cron/score-snapshot: today's score snapshot on demand, behind the cron or admin secret, once per date;
// and the development CRON_SECRET that `npm start` on its embedded defaults generates for local tools.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import { loadConfig } from '../../src/config.ts';
import { companies, scoreSnapshots } from '../../src/db/schema/index.ts';
import { developmentCronSecret } from '../../src/domain/auth/dev-secret.ts';
import { useTestApp } from '../helpers/app.ts';
import { finalizeScored } from '../helpers/scores.ts';
import { tokenTrading } from '../helpers/trading.ts';
import { treasuryHelpers } from '../helpers/treasuries.ts';

const CRON = 'cron-secret-for-snapshots';
const ADMIN = 'admin-secret-for-snapshots';
const t = useTestApp({ env: { CRON_SECRET: CRON, ADMIN_SECRET: ADMIN } });
const tr = treasuryHelpers(t);
const trading = tokenTrading(t);

const snapshot = (secret: string | null = CRON) =>
  t.app.inject({
    method: 'POST',
    url: '/api/cron/score-snapshot',
    headers: secret === null ? {} : { authorization: `Bearer ${secret}` },
  });

describe('POST /api/cron/score-snapshot', () => {
  it('needs the cron or the admin secret, and changes nothing without it', async () => {
    for (const secret of [null, 'wrong', `${CRON}x`]) {
      const res = await snapshot(secret);
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe('UNAUTHORIZED');
    }
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/cron/score-snapshot',
      headers: { authorization: `Basic ${CRON}` },
    });
    expect(bad.statusCode).toBe(401);
  });

  it("answers waiting until the indexer has applied the chain's day, then empty while there is no company", async () => {
    // Today is the chain's: 2027-05-04, 09:30.
    await tr.at(Date.parse('2027-05-04T09:30:00Z') / 1000);
    const waiting = await snapshot(ADMIN);
    expect(waiting.statusCode).toBe(200);
    expect(waiting.json().data).toEqual({
      date: '2027-05-04',
      status: 'waiting',
      companies: 0,
      changed: 0,
      block: null,
      waitingFor: ['company-tokens', 'treasury-transfers'],
      reason: 'company-tokens: has not applied any block yet; treasury-transfers: has not applied any block yet',
    });
    await Promise.all([trading.index(), tr.index()]);
    // Applied, but the day's last block is within the finality depth (12 blocks on the local chain).
    const unfinal = (await snapshot(ADMIN)).json().data;
    expect(unfinal).toMatchObject({ status: 'waiting', waitingFor: ['company-tokens', 'treasury-transfers'] });
    expect(unfinal.reason).toMatch(/^company-tokens: applied the day, but its last block is not finalized yet/);
    await finalizeScored(t);
    const res = await snapshot(ADMIN);
    expect(res.json().data).toMatchObject({ date: '2027-05-04', status: 'empty', companies: 0 });
  });

  it("takes today's snapshot once: a second call finds it taken and writes nothing", async () => {
    for (let i = 1; i <= 3; i++) {
      await t.database.db.insert(companies).values({
        id: `snap${i}`,
        name: `Snap ${i}`,
        slug: `snap-${i}`,
        creatorAddress: devAccount(2).address,
        cardTokenId: 9100 + i,
        cardLockedAt: new Date('2026-05-01T00:00:00Z'),
        category: 'AI_TOKENS',
        description: i === 1 ? 'the most complete profile' : null,
      });
    }
    const first = await snapshot();
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toMatchObject({ date: '2027-05-04', status: 'taken', companies: 3 });
    const rows = await t.database.db.select().from(scoreSnapshots);
    expect(rows).toHaveLength(3);

    const second = await snapshot(ADMIN);
    expect(second.json().data).toMatchObject({ date: '2027-05-04', status: 'exists' });
    expect(await t.database.db.select().from(scoreSnapshots)).toEqual(rows);

    const list = await t.app.inject({ method: 'GET', url: '/api/fortune-list' });
    expect(list.json().data.epoch).toBe('2027-05-04T00:00:00.000Z');
    expect(list.json().data.companies.map((e: any) => e.company.slug)).toContain('snap-1');
  });
});

describe('the development CRON_SECRET', () => {
  const dirs: string[] = [];
  const dir = () => {
    const d = mkdtempSync(path.join(os.tmpdir(), 'aie-dev-secret-'));
    dirs.push(d);
    return d;
  };
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('is generated once into DATA_DIR/cron-secret (owner-only) and kept across starts', () => {
    const dataDir = dir();
    const secret = developmentCronSecret(loadConfig({ DATA_DIR: dataDir }));
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const file = path.join(dataDir, 'cron-secret');
    expect(readFileSync(file, 'utf8').trim()).toBe(secret);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(developmentCronSecret(loadConfig({ DATA_DIR: dataDir }))).toBe(secret);
  });

  it('is never made when a secret is configured, in production, or on a configured chain', () => {
    const base = loadConfig({ DATA_DIR: dir() });
    expect(developmentCronSecret({ ...base, cronSecret: 'given' })).toBeUndefined();
    expect(developmentCronSecret({ ...base, nodeEnv: 'production' })).toBeUndefined();
    expect(developmentCronSecret({ ...base, chainRpcUrl: 'http://127.0.0.1:8545' })).toBeUndefined();
    expect(readdirSync(base.dataDir)).toEqual([]);
  });
});
