// Fault: the database refuses a running round's bookkeeping for a moment, as a restarting server does
// (SQLSTATE 57P03, "cannot connect now"). A trigger refuses every write of decision_rounds for 1.5 s from just after
// the round is inserted; the round retries its heartbeat, phase and lines through the blip and ends COMPLETE, not
// abandoned RUNNING until the stale job fails it. A blip longer than the bound still fails the round honestly.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decisionRounds } from '../../src/db/schema/decisions.ts';
import { retried } from '../../src/domain/engine/rounds.ts';
import { useTestApp } from '../helpers/app.ts';
import { signed, staffedCompany } from '../helpers/companies.ts';
import { disagreementsWithChain } from '../helpers/exactly-once.ts';

const t = useTestApp({ env: { MANUAL_ROUND_COOLDOWN_S: '0' } });
let companyId: string;

beforeAll(async () => {
  companyId = (await staffedCompany(t, 1, { name: 'Blip Co' })).id;
  const statements = [
    'create table if not exists test_blip (until timestamptz not null)',
    `create or replace function test_blip_refuse() returns trigger language plpgsql as $$
    begin
      if exists (select 1 from test_blip where until > clock_timestamp()) then
        raise exception 'the database system is starting up (test blip)' using errcode = '57P03';
      end if;
      return new;
    end $$`,
    'create trigger test_blip before update on decision_rounds for each row execute function test_blip_refuse()',
  ];
  for (const statement of statements) await t.database.db.execute(sql.raw(statement));
});
afterAll(async () => {
  await t.database?.db.execute(sql.raw('drop trigger if exists test_blip on decision_rounds'));
});

/** Every write of decision_rounds' rows fails as the server restarting would, for `ms` from now. */
const blip = (ms: number) =>
  t.database.db.execute(sql`insert into test_blip values (clock_timestamp() + ${`${ms} milliseconds`}::interval)`);

describe('a database blip during a round', () => {
  it('retries the round bookkeeping through the blip: the round ends COMPLETE, none is left RUNNING', async () => {
    await blip(1_500);
    const res = await signed(t.app, 1, 'POST', `/api/companies/${companyId}/decisions/run`);
    expect(res.statusCode, res.body).toBe(201);
    const round = res.json().data as { id: string; status: string };
    expect(round.status).toBe('COMPLETE');
    const running = await t.database.db.select().from(decisionRounds).where(eq(decisionRounds.status, 'RUNNING'));
    expect(running).toEqual([]);
    expect(
      await disagreementsWithChain(
        t.database.db,
        t.chain.chain.publicClient,
        await t.chain.chain.publicClient.getBlockNumber(),
      ),
    ).toEqual([]);
  });

  it('gives up past its bound with the database error, and retries nothing but an unavailable database', async () => {
    let calls = 0;
    const unavailable = Object.assign(new Error('refused'), { code: '57P03' });
    await expect(
      retried(async () => {
        calls++;
        throw unavailable;
      }, 1_000),
    ).rejects.toBe(unavailable);
    expect(calls).toBeGreaterThanOrEqual(3);
    calls = 0;
    await expect(
      retried(async () => {
        calls++;
        throw new Error('a real bug');
      }),
    ).rejects.toThrow('a real bug');
    expect(calls).toBe(1);
  });
});
