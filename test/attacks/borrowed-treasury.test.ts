// Attack: a borrowed treasury. The treasury score (30% of the score that splits epoch rewards) counted whatever USDC
// the company's treasury address held when the snapshot read it, and PUT /api/companies/{id}/treasury took any
// address: a company with no money named a dev wallet holding 1,000,000 USDC and ranked first; another named the
// token launcher and scored every curve's reserves; money parked for the minute of the snapshot counted as a day's.
// Now a treasury must accept the company with its own EIP-712 signature (docs/api/companies.md "Treasury"), some
// addresses can never be a treasury, and the score is the time-weighted average balance over the day, computed from
// the USDC transfers the treasury stream indexes (docs/api/fortune.md "Treasury"). Real HTTP routes, chain and
// snapshot.
import { eq } from 'drizzle-orm';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { beforeAll, describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import { TREASURY_ACCEPTANCE_MAX_S } from '../../src/constants.ts';
import { companies } from '../../src/db/schema/companies.ts';
import { utcDateOf } from '../../src/domain/scores/dates.ts';
import { takeScoreSnapshot } from '../../src/domain/scores/snapshot.ts';
import { useTestApp } from '../helpers/app.ts';
import { companyBody, mintCard, signed, staffedCompany } from '../helpers/companies.ts';
import { finalizeScored, scoreFixtures, USDC } from '../helpers/scores.ts';
import { tokenTrading } from '../helpers/trading.ts';
import { treasuryHelpers } from '../helpers/treasuries.ts';

const t = useTestApp();
const f = scoreFixtures(t);
const trading = tokenTrading(t);
const tr = treasuryHelpers(t);
const DAY_S = 86_400;
/** Dev account 9 holds 1,000,000 USDC from the chain's genesis: someone else's money. */
const RICH = devAccount(9);

async function createCompany(account: number, body: Record<string, unknown> = {}) {
  await mintCard(t.chain, account);
  const res = await signed(t.app, account, 'POST', '/api/companies', companyBody(body));
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.id as string;
}
const companyRow = async (id: string) => (await t.database.db.select().from(companies).where(eq(companies.id, id)))[0]!;

let poor: string;
beforeAll(async () => {
  poor = await createCompany(2);
});

describe('a treasury that is not the company’s', () => {
  it("refuses someone else's address without its signature (403), and nothing is recorded", async () => {
    const res = await tr.put(2, poor, { treasuryAddress: RICH.address });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('accept') });
    expect((await companyRow(poor)).treasuryAddress).toBeNull();
  });

  it('refuses an acceptance signed by another key, for another company, expired or too far ahead', async () => {
    const other = await createCompany(3);
    const cases = [
      // The creator signs in the treasury's place.
      { treasuryAddress: RICH.address, acceptance: await tr.accept(devAccount(2), poor) },
      // The treasury accepted another company.
      { treasuryAddress: RICH.address, acceptance: await tr.accept(RICH, other) },
      // Expired by the chain's clock, and valid for longer than allowed.
      { treasuryAddress: RICH.address, acceptance: await tr.accept(RICH, poor, -1) },
      { treasuryAddress: RICH.address, acceptance: await tr.accept(RICH, poor, TREASURY_ACCEPTANCE_MAX_S + 60) },
      // A valid signature made over another treasury's acceptance.
      {
        treasuryAddress: devAccount(8).address,
        acceptance: await tr.accept(RICH, poor),
      },
    ];
    for (const body of cases) {
      const res = await tr.put(2, poor, body);
      expect([res.statusCode, res.json().error?.code], JSON.stringify(body)).toEqual([403, 'FORBIDDEN']);
    }
    expect((await companyRow(poor)).treasuryAddress).toBeNull();
    // Just inside the bound: an acceptance valid for TREASURY_ACCEPTANCE_MAX_S is taken.
    const fresh = privateKeyToAccount(generatePrivateKey());
    const res = await tr.put(3, other, {
      treasuryAddress: fresh.address,
      acceptance: await tr.accept(fresh, other, TREASURY_ACCEPTANCE_MAX_S),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ treasuryAddress: fresh.address, treasuryStatus: 'PROVEN' });
  });

  it("refuses the zero address, platform contracts, a token, an agent wallet and another company's treasury", async () => {
    const contracts = t.chain.chain.contracts;
    const staffed = await staffedCompany(t, 4);
    const token = await trading.launch(staffed.id, 'BRW', 4);
    // Company 5 proves its creator's own wallet: no second signature for it.
    const owner = await createCompany(5);
    const own = await tr.put(5, owner, { treasuryAddress: devAccount(5).address });
    expect(own.statusCode).toBe(200);
    expect(own.json().data).toMatchObject({ treasuryAddress: devAccount(5).address, treasuryStatus: 'PROVEN' });

    const refused: [string, number][] = [
      [`0x${'0'.repeat(40)}`, 400],
      [contracts.tokenLauncher!, 400],
      [contracts.usdc!, 400],
      [contracts.staking!, 400],
      [token, 400],
      [staffed.cfo.address, 400],
      [devAccount(5).address, 403],
    ];
    for (const [address, status] of refused) {
      // Even with the address's "acceptance" where a key signs for it (the other company's creator here).
      const body =
        address === devAccount(5).address
          ? { treasuryAddress: address, acceptance: await tr.accept(devAccount(5), poor) }
          : { treasuryAddress: address };
      const res = await tr.put(2, poor, body);
      expect([res.statusCode, res.json().error?.code], address).toEqual([
        status,
        status === 400 ? 'BAD_REQUEST' : 'FORBIDDEN',
      ]);
    }
    expect((await companyRow(poor)).treasuryAddress).toBeNull();
  });
});

describe('a treasury named without consent', () => {
  it("does not keep the wallet's owner from proving it for their own company", async () => {
    // A squatter (dev account 8) names dev account 9's wallet when creating its company: recorded, unproven.
    const squatter = await createCompany(8, { treasuryAddress: devAccount(9).address });
    const row = await companyRow(squatter);
    expect([row.treasuryAddress, row.treasuryProvenAt]).toEqual([devAccount(9).address, null]);
    // The wallet's owner proves it for the company it creates: its own wallet, no second signature.
    const owner = await createCompany(9);
    const res = await tr.put(9, owner, { treasuryAddress: devAccount(9).address });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.treasuryStatus).toBe('PROVEN');
    // The squatter cannot prove it now: it is another company's proven treasury.
    const retry = await tr.put(8, squatter, {
      treasuryAddress: devAccount(9).address,
      acceptance: await tr.accept(devAccount(9), squatter),
    });
    expect([retry.statusCode, retry.json().error.code]).toEqual([403, 'FORBIDDEN']);
  });
});

describe("a whale's signed treasury", () => {
  it('counts 1,000,000 USDC held for one hour of the day as 1/24 of it, below a company holding 50,000 all day', async () => {
    const whale = privateKeyToAccount(generatePrivateKey());
    const honestTreasury = privateKeyToAccount(generatePrivateKey());
    const honest = await createCompany(6);
    // The next whole UTC day of the chain, from 00:00.
    const latest = await t.chain.chain.publicClient.getBlock();
    const day = (Math.floor(Number(latest.timestamp) / DAY_S) + 1) * DAY_S;
    await tr.mintAt(honestTreasury.address, 50_000n * USDC, day - 60);
    await tr.prove(6, honest, honestTreasury);
    await tr.at(day + 60);
    const proven = await tr.prove(2, poor, whale);
    expect(proven).toMatchObject({ treasuryAddress: whale.address, treasuryStatus: 'PROVEN' });
    // The whale parks its million in the treasury at 23:00 and it is still there when the day ends.
    await tr.mintAt(whale.address, 1_000_000n * USDC, day + 23 * 3600);
    await tr.at(day + DAY_S + 60);
    await tr.index();

    const date = utcDateOf((day + DAY_S) * 1000);
    // The day's blocks finalized: a snapshot reads no block above the finalized one.
    await finalizeScored(t);
    expect(await takeScoreSnapshot(t.container, t.database.db, date)).toMatchObject({ status: 'taken' });
    const s = await f.snapshotOf(date);
    // 1,000,000 USDC x 3,600 s / 86,400 s, in base units rounded down.
    expect(s.get(poor)!.treasuryRaw).toBe((1_000_000n * USDC * 3600n) / 86_400n);
    expect(s.get(poor)!.treasuryRaw).toBe(41_666_666_666n);
    // The honest treasury held 50,000 USDC for the whole day (it was proven a minute before it began).
    expect(s.get(honest)!.treasuryRaw).toBe(50_000n * USDC);
    expect(s.get(honest)!.treasuryScore).toBeGreaterThan(s.get(poor)!.treasuryScore);
  });
});

describe('a treasury set before proofs were asked for', () => {
  it('scores 0 and shows UNPROVEN until the creator proves it', async () => {
    const legacy = await createCompany(7);
    // As every treasury set before this change: an address and no proof.
    await t.database.db.update(companies).set({ treasuryAddress: RICH.address }).where(eq(companies.id, legacy));
    const view = await signed(t.app, 7, 'GET', `/api/companies/${legacy}`);
    expect(view.json().data).toMatchObject({ treasuryAddress: RICH.address, treasuryStatus: 'UNPROVEN' });
    const latest = await t.chain.chain.publicClient.getBlock();
    const date = utcDateOf((Math.floor(Number(latest.timestamp) / DAY_S) + 1) * DAY_S * 1000);
    await takeScoreSnapshot(t.container, t.database.db, date);
    expect((await f.snapshotOf(date)).get(legacy)!.treasuryRaw).toBe(0n);
  });
});
