// Attack: money decided on blocks a reorg can still take back. The daily snapshot was taken as soon as the scored
// streams had applied the day's last block, finalized or not: volume bought and USDC parked in a treasury in the
// day's last, unsafe blocks counted in the snapshot (written once, for good) and so in the epoch's Merkle tree, even
// when a reorg then removed them from the chain. Now the snapshot waits until the day's last block is finalized (the
// chain's `finalized` tag; here a finality depth of 30 blocks), and no snapshot reads a trade or a treasury balance
// of a block above the scored streams' finalized block (docs/indexer.md "Finality and money"). Real trades on the
// launcher's curve, real USDC transfers, the real indexer streams, a real reorg (evm_revert), the real snapshot and
// epoch scores.

import { AccessCardAbi } from '@ai-economy/shared/abis';
import { desc, eq } from 'drizzle-orm';
import type { LocalAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { beforeAll, describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import { holdStreamLocks } from '../../src/chain/indexer.ts';
import { followStream } from '../../src/chain/streams.ts';
import { companies } from '../../src/db/schema/companies.ts';
import { scoreSnapshots } from '../../src/db/schema/scores.ts';
import { accessCardTransfers } from '../../src/domain/companies/access-card-transfers.stream.ts';
import { epochScores } from '../../src/domain/epochs/scores.ts';
import { startOfDate } from '../../src/domain/scores/dates.ts';
import { takeScoreSnapshot } from '../../src/domain/scores/snapshot.ts';
import { companyTokens } from '../../src/domain/tokens/company-tokens.stream.ts';
import { useTestApp } from '../helpers/app.ts';
import { anvilTestClient } from '../helpers/chain.ts';
import { companyBody, mintCard, signed } from '../helpers/companies.ts';
import { USDC } from '../helpers/scores.ts';
import { type Trader, tokenTrading } from '../helpers/trading.ts';
import { treasuryHelpers } from '../helpers/treasuries.ts';

const DEPTH = 30;
const t = useTestApp({ env: { CHAIN_FINALITY_DEPTH: String(DEPTH) } });
const trading = tokenTrading(t);
const tr = treasuryHelpers(t);
const anvil = () => anvilTestClient(t.chain.node.rpcUrl);
const db = () => t.database.db;
const HOUR = 3_600;

let company: string;
let token: `0x${string}`;
const treasury = privateKeyToAccount(generatePrivateKey());
const honest: LocalAccount[] = [];
const attackers: LocalAccount[] = [];

/** A fresh wallet with gas and 1,000 USDC (from dev account 9). */
async function freshWallet(): Promise<LocalAccount> {
  const account = privateKeyToAccount(generatePrivateKey());
  await anvil().setBalance({ address: account.address, value: 10n ** 18n });
  await trading.fund(9, account.address, 1_000n * USDC);
  return account;
}

/** Both scored streams apply every block up to the head (finalized or not). */
const index = () => Promise.all([trading.index(), tr.index()]);

/** Mines the finality depth's blocks and lets the streams apply them: everything before is now finalized. */
async function finalize() {
  await anvil().mine({ blocks: DEPTH });
  await index();
}

/** Each of `traders` buys `usdc` whole USDC of the token. */
async function buyAll(traders: readonly Trader[], usdc: bigint) {
  for (const trader of traders) await trading.buy(trader, token, usdc * USDC);
}

/**
 * What a snapshot of `date` taken now would hold (the explicit-date path an operator uses, in a transaction rolled
 * back afterwards, so the date stays untaken).
 */
async function wouldScore(date: string) {
  let row: typeof scoreSnapshots.$inferSelect | undefined;
  const undo = new Error('rolled back');
  await db()
    .transaction(async (tx) => {
      expect(await takeScoreSnapshot(t.container, tx, date)).toMatchObject({ status: 'taken' });
      [row] = await tx.select().from(scoreSnapshots).where(eq(scoreSnapshots.snapshotDate, date));
      throw undo;
    })
    .catch((err: unknown) => {
      if (err !== undo) throw err;
    });
  expect(row).toBeDefined();
  return row!;
}

const snapshotRow = async (date: string) =>
  (await db().select().from(scoreSnapshots).where(eq(scoreSnapshots.snapshotDate, date)))[0];

/** The epoch scores of a one-day window holding the 00:00 UTC of `date`. */
const epochOfDay = (date: string) => {
  const start = BigInt(startOfDate(date) / 1000);
  return epochScores(db(), start, start + 86_400n);
};

beforeAll(async () => {
  await mintCard(t.chain, 2);
  const res = await signed(t.app, 2, 'POST', '/api/companies', companyBody());
  expect(res.statusCode, res.body).toBe(201);
  company = res.json().data.id;
  token = await trading.launch(company, 'FINL', 2);
  await tr.prove(2, company, treasury);
  for (let i = 0; i < 4; i++) honest.push(await freshWallet());
  for (let i = 0; i < 4; i++) attackers.push(await freshWallet());
  // Every approval of the launcher now, so each trade later is one block.
  await buyAll([...honest, ...attackers], 1n);
  await finalize();
});

describe('a trade and a deposit in blocks that are not finalized', () => {
  let date: string;
  let dayStart: number;

  beforeAll(async () => {
    date = await trading.startTradingDay();
    dayStart = startOfDate(date) / 1000 - 86_400;
    // The day's finalized market: four outside wallets buy 10 USDC each.
    await buyAll(honest, 10n);
    await finalize();
    // Its last, unsafe blocks: 1,000 USDC into the treasury at noon, and four wallets buying 100 USDC each.
    await tr.mintAt(treasury.address, 1_000n * USDC, dayStart + 12 * HOUR);
    await buyAll(attackers, 100n);
    // Past midnight; the streams apply every block of the day, the last ones above the finalized block.
    await tr.at(dayStart + 24 * HOUR + 1);
    await index();
  });

  it('keep the snapshot waiting, saying so in words, and out of the epoch tree', async () => {
    const waiting = await takeScoreSnapshot(t.container, db());
    expect(waiting).toMatchObject({
      date,
      status: 'waiting',
      waitingFor: ['company-tokens', 'treasury-transfers'],
    });
    expect(waiting.reason).toMatch(/^company-tokens: applied the day, but its last block is not finalized yet/);
    expect(waiting.reason).toContain('; treasury-transfers: applied the day, but its last block is not finalized yet');
    expect(await snapshotRow(date)).toBeUndefined();
    expect(await epochOfDay(date)).toEqual([]);
  });

  it('are not read by a snapshot taken meanwhile: volume and treasury are the finalized ones', async () => {
    const row = await wouldScore(date);
    // The four honest 10 USDC buys; the 1,000 USDC at noon is not there yet.
    expect(row.volumeRaw).toBe(40n * USDC);
    expect(row.treasuryRaw).toBe(0n);
  });

  it('count once finalized: the snapshot is taken with them', async () => {
    await finalize();
    expect(await takeScoreSnapshot(t.container, db())).toMatchObject({ date, status: 'taken', companies: 1 });
    const row = (await snapshotRow(date))!;
    expect(row.volumeRaw).toBe(440n * USDC);
    // 1,000 USDC held for the day's second half.
    expect(row.treasuryRaw).toBe(500n * USDC);
    const [score] = await epochOfDay(date);
    expect(score).toMatchObject({ companyId: company, score: BigInt(Math.round(row.overall * 100)) });
  });
});

describe('a trade and a deposit that a reorg removes before they are finalized', () => {
  let date: string;
  let dayStart: number;
  let beforeAttack: `0x${string}`;

  beforeAll(async () => {
    // The day after the first: it starts at the first snapshot's 00:00.
    const [first] = await db().select().from(scoreSnapshots);
    dayStart = startOfDate(first!.snapshotDate) / 1000;
    date = new Date((dayStart + 86_400) * 1000).toISOString().slice(0, 10);
    await tr.at(dayStart + HOUR);
    await buyAll(honest, 10n);
    await finalize();
    beforeAttack = await anvil().snapshot();
    await tr.mintAt(treasury.address, 1_000n * USDC, dayStart + 12 * HOUR);
    await buyAll(attackers, 100n);
    await tr.at(dayStart + 24 * HOUR + 1);
    await index();
  });

  it('while on the chain: the snapshot waits, and one taken meanwhile reads none of it', async () => {
    expect(await takeScoreSnapshot(t.container, db())).toMatchObject({ date, status: 'waiting' });
    const row = await wouldScore(date);
    expect(row.volumeRaw).toBe(40n * USDC);
    // Yesterday's 1,000 USDC all day; not the second 1,000.
    expect(row.treasuryRaw).toBe(1_000n * USDC);
    expect(await epochOfDay(date)).toEqual([]);
  });

  it('after the reorg and finality: the snapshot and the epoch scores never saw them', async () => {
    await anvil().revert({ id: beforeAttack });
    await tr.at(dayStart + 24 * HOUR + 1);
    await finalize();
    expect(await takeScoreSnapshot(t.container, db())).toMatchObject({ date, status: 'taken', companies: 1 });
    const row = (await snapshotRow(date))!;
    expect(row.volumeRaw).toBe(40n * USDC);
    expect(row.treasuryRaw).toBe(1_000n * USDC);
    expect(await trading.usdcOf(treasury.address)).toBe(1_000n * USDC);
    const [score] = await epochOfDay(date);
    expect(score).toMatchObject({ companyId: company, score: BigInt(Math.round(row.overall * 100)) });
  });
});

describe("the finality bound: the day's last block one under the finalized block, then at it", () => {
  it("waits while the finalized block is one below the day's last block, and takes the day once it is that block", async () => {
    const [latestSnapshot] = await db().select().from(scoreSnapshots).orderBy(desc(scoreSnapshots.snapshotDate));
    const dayStart = startOfDate(latestSnapshot!.snapshotDate) / 1000;
    const date = new Date((dayStart + 86_400) * 1000).toISOString().slice(0, 10);
    await tr.at(dayStart + HOUR);
    await buyAll(honest, 10n);
    await tr.at(dayStart + 24 * HOUR + 1);
    // M stamped past midnight; L = M - 1 is the day's last block.
    const last = (await anvil().getBlockNumber()) - 1n;
    // The head at L + DEPTH - 1: the finalized block is L - 1.
    await anvil().mine({ blocks: DEPTH - 2 });
    await index();
    const waiting = await takeScoreSnapshot(t.container, db());
    expect(waiting).toMatchObject({ date, status: 'waiting', waitingFor: ['company-tokens', 'treasury-transfers'] });
    expect(waiting.reason).toBe(
      [
        `company-tokens: applied the day, but its last block is not finalized yet (finalized up to block ${last - 1n})`,
        `treasury-transfers: applied the day, but its last block is not finalized yet (finalized up to block ${last - 1n})`,
      ].join('; '),
    );
    // One block more: the finalized block is L.
    await anvil().mine({ blocks: 1 });
    await index();
    expect(await takeScoreSnapshot(t.container, db())).toMatchObject({ date, status: 'taken', companies: 1 });
    expect((await snapshotRow(date))!.volumeRaw).toBe(40n * USDC);
  });
});

describe('a card transfer in blocks that are not finalized', () => {
  // The creator's own buys are not volume. The card stream applies a transfer as soon as it reads it; a creator who
  // hands the card on (or a reorg that may take the transfer back) must not turn the old creator's buys into volume
  // while the transfer is not final: a company's creator is every creator it had since its finalized block.
  it("does not make the old creator's buys of its own token count as volume", async () => {
    const [latestSnapshot] = await db().select().from(scoreSnapshots).orderBy(desc(scoreSnapshots.snapshotDate));
    const dayStart = startOfDate(latestSnapshot!.snapshotDate) / 1000;
    const date = new Date((dayStart + 86_400) * 1000).toISOString().slice(0, 10);
    await tr.at(dayStart + HOUR);
    await buyAll(honest, 10n);
    // The creator (dev account 2) buys 200 USDC of its own token: finalized, and not volume.
    await trading.fund(9, devAccount(2).address, 200n * USDC);
    await trading.buy(2, token, 200n * USDC);
    await finalize();
    expect((await wouldScore(date)).volumeRaw).toBe(40n * USDC);
    // The card goes to a fresh wallet in the day's last blocks, which are not final; the card stream applies it.
    const [row] = await db().select().from(companies).where(eq(companies.id, company));
    const buyer = privateKeyToAccount(generatePrivateKey()).address;
    await trading.send(
      t.chain.wallet(2).writeContract({
        address: t.chain.chain.contracts.accessCard!,
        abi: AccessCardAbi,
        functionName: 'transferFrom',
        args: [devAccount(2).address, buyer, BigInt(row!.cardTokenId!)],
      }),
    );
    const cards = followStream(t.container, accessCardTransfers, { confirmations: 0 })!;
    for (let i = 0; i < 20 && !(await cards.pollOnce()).caughtUp; i++);
    const [moved] = await db().select().from(companies).where(eq(companies.id, company));
    expect(moved!.creatorAddress.toLowerCase()).toBe(buyer.toLowerCase());
    // Still only the outside wallets' 40 USDC: the old creator stays excluded while the transfer is not final.
    expect((await wouldScore(date)).volumeRaw).toBe(40n * USDC);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('the snapshot holds the scored streams while it reads', () => {
  it('a batch in between finds the stream busy and changes nothing; it applies once the snapshot is done', async () => {
    await anvil().mine({ blocks: 1 });
    const follower = followStream(t.container, companyTokens, { confirmations: 0 })!;
    const cursor = await follower.cursor();
    await db().transaction(async (tx) => {
      await holdStreamLocks(tx, ['treasury-transfers', 'company-tokens']);
      // Another connection of the pool, as another indexer replica.
      expect(await follower.pollOnce()).toMatchObject({ busy: true, applied: 0, cursor });
    });
    expect(await follower.cursor()).toBe(cursor);
    expect(await follower.pollOnce()).toMatchObject({ busy: false, caughtUp: true });
    expect(await follower.cursor()).toBeGreaterThan(cursor);
  });
});
