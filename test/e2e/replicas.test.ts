// Two service processes on one PostgreSQL, as two replicas behind a load balancer: each keeps the read routes'
// bodies in memory (src/http/read-cache.ts), and a write made through either one, or by a third process straight
// into the database (as the indexer does), shows in the very next read on both. PostgreSQL only: PGlite admits
// one process.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createId } from '@paralleldrive/cuid2';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRADE_TOOLS } from '../../src/constants.ts';
import type { Database } from '../../src/db/client.ts';
import { companies } from '../../src/db/schema/companies.ts';
import {
  killServices,
  type ServiceChain,
  type ServiceDatabase,
  type ServiceProcess,
  serviceDatabase,
  startService,
  startServiceChain,
} from '../helpers/process.ts';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
let dir: string;
let chain: ServiceChain;
let store: ServiceDatabase;
let writer: Database;
let a: ServiceProcess;
let b: ServiceProcess;

beforeAll(async () => {
  if (!onPostgres) return;
  dir = mkdtempSync(path.join(tmpdir(), 'aie-replicas-'));
  [chain, store] = await Promise.all([startServiceChain(dir), serviceDatabase(dir)]);
  const env = {
    DATA_DIR: dir,
    ...chain.env,
    ...store.env,
    ROLES: 'api',
    RATE_LIMIT_MAX: '100000',
    // The directive is then written without a wallet signature: a write any client can send to either replica.
    COMPANY_PATCH_AUTH: 'ip',
  };
  [a, b] = await Promise.all([startService(env), startService(env)]);
  writer = await store.open();
}, 120_000);

afterAll(async () => {
  killServices();
  await writer?.close();
  await store?.drop();
  await chain?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const read = async (service: ServiceProcess, url: string) => {
  const res = await fetch(service.base + url);
  expect(res.status, url).toBe(200);
  return (await res.json()) as any;
};

describe.skipIf(!onPostgres)('two replicas on one PostgreSQL', () => {
  it('shows a write through one replica in the next read on the other, every time', async () => {
    const id = createId();
    await writer.db.insert(companies).values({
      id,
      name: 'Replicated',
      slug: `replicated-${id}`,
      category: 'RWA',
      league: 'HUMAN',
      creatorAddress: '0x000000000000000000000000000000000000dEaD',
      cardTokenId: 4242,
      // Its agents cannot trade: an unsigned PATCH is allowed only then (docs/api/companies.md "Directive and engine").
      toolkitConfig: { disabledTools: [...TRADE_TOOLS] },
    });
    // Both replicas read it, and keep it.
    expect((await read(a, `/api/companies/${id}`)).data.ceoPrompt).toBeNull();
    expect((await read(b, `/api/companies/${id}`)).data.ceoPrompt).toBeNull();
    for (let i = 0; i < 20; i++) {
      const [to, from] = i % 2 === 0 ? [a, b] : [b, a];
      const ceoPrompt = `Directive number ${i}.`;
      const res = await fetch(`${to.base}/api/companies/${id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ceoPrompt }),
      });
      expect(res.status, await res.clone().text()).toBe(200);
      expect((await read(from, `/api/companies/${id}`)).data.ceoPrompt).toBe(ceoPrompt);
      expect((await read(to, `/api/companies/${id}`)).data.ceoPrompt).toBe(ceoPrompt);
    }
  });

  it('shows a write straight into the database (another process, as the indexer) in the next read on both', async () => {
    const id = createId();
    await writer.db.insert(companies).values({
      id,
      name: 'Indexed 0',
      slug: `indexed-${id}`,
      category: 'RWA',
      league: 'HUMAN',
      creatorAddress: '0x000000000000000000000000000000000000dEaD',
      cardTokenId: 4243,
    });
    for (let i = 1; i <= 20; i++) {
      await writer.db.execute(sql`update companies set name = ${`Indexed ${i}`} where id = ${id}`);
      const [fromA, fromB] = await Promise.all([read(a, `/api/companies/${id}`), read(b, `/api/companies/${id}`)]);
      expect(fromA.data.name).toBe(`Indexed ${i}`);
      expect(fromB.data.name).toBe(`Indexed ${i}`);
    }
  });
});
