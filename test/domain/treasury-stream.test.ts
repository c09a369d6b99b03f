// The treasury stream (src/domain/treasuries/stream.ts) on a real chain and database: a followed address's USDC
// transfers become observations whose balances and cumulative balance-time match the chain, exactly; the time-
// weighted average over a window matches the integral computed by hand; an address added while the stream was moving
// loses no transfer (the catch-up by topic filter); a batch applied twice records nothing twice; and a crash between
// following an address and recording the company's treasury is finished by trying again.
import { asc, eq, sql } from 'drizzle-orm';
import { type Address, erc20Abi } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { followStream } from '../../src/chain/streams.ts';
import { rowsOf } from '../../src/db/client.ts';
import { chainCursors } from '../../src/db/schema/chain.ts';
import { treasuryAccounts, treasuryObservations } from '../../src/db/schema/treasuries.ts';
import { treasuryTwab } from '../../src/domain/scores/twab.ts';
import { recordBalanceChanges, recordOpeningBalance } from '../../src/domain/treasuries/observations.ts';
import { followTreasury, treasuryTransfers } from '../../src/domain/treasuries/treasury-transfers.stream.ts';
import { useTestApp } from '../helpers/app.ts';
import { anvilTestClient } from '../helpers/chain.ts';
import { mintCard } from '../helpers/companies.ts';
import { scoreFixtures, USDC } from '../helpers/scores.ts';
import { treasuryHelpers } from '../helpers/treasuries.ts';

const t = useTestApp();
const f = scoreFixtures(t);
const tr = treasuryHelpers(t);
const db = () => t.database.db;
const DAY_S = 86_400;

const balanceOf = (address: Address) =>
  t.chain.chain.publicClient.readContract({
    address: t.chain.chain.contracts.usdc!,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [address],
  });
const observations = (address: Address) =>
  db()
    .select()
    .from(treasuryObservations)
    .where(eq(treasuryObservations.address, address))
    .orderBy(asc(treasuryObservations.blockNumber), asc(treasuryObservations.logIndex));
/** Sends `amount` USDC from `from` (a key with gas) to `to` in a block stamped `seconds`. */
async function sendAt(from: ReturnType<typeof privateKeyToAccount>, to: Address, amount: bigint, seconds: number) {
  await anvilTestClient(t.chain.node.rpcUrl).setNextBlockTimestamp({ timestamp: BigInt(seconds) });
  const hash = await t.chain.chain.walletOf(from).writeContract({
    address: t.chain.chain.contracts.usdc!,
    abi: erc20Abi,
    functionName: 'transfer',
    args: [to, amount],
  });
  expect((await t.chain.chain.publicClient.waitForTransactionReceipt({ hash })).status).toBe('success');
}
const nextDay = async () =>
  (Math.floor(Number((await t.chain.chain.publicClient.getBlock()).timestamp) / DAY_S) + 1) * DAY_S;

describe('the treasury stream', () => {
  it('records each transfer with the balance and cumulative balance-time the chain had', async () => {
    const treasury = privateKeyToAccount(generatePrivateKey());
    await t.chain.chain.publicClient.request({
      method: 'anvil_setBalance' as never,
      params: [treasury.address, '0xde0b6b3a7640000'] as never,
    });
    const day = await nextDay();
    await tr.mintAt(treasury.address, 500n * USDC, day - 100);
    await followTreasury(t.container, treasury.address);
    // In at 06:00 (+1,000), out at 12:00 (-300 to an outsider), in at 18:00 (+200): 500, 1,500, 1,200, 1,400.
    await tr.mintAt(treasury.address, 1_000n * USDC, day + 6 * 3600);
    await sendAt(treasury, '0x000000000000000000000000000000000000dEaD', 300n * USDC, day + 12 * 3600);
    await tr.mintAt(treasury.address, 200n * USDC, day + 18 * 3600);
    await tr.at(day + DAY_S + 10);
    await tr.index();

    const rows = await observations(treasury.address);
    expect(rows.map((r) => r.balance)).toEqual([500n, 1_500n, 1_200n, 1_400n].map((u) => u * USDC));
    expect(rows.at(-1)!.balance).toBe(await balanceOf(treasury.address));
    // cumulative: 500 until 06:00 (from the opening block's time), then 1,500 for 6 h, then 1,200 for 6 h.
    const opened = rows[0]!.observedAt.getTime() / 1000;
    const expected = [
      0n,
      500n * USDC * BigInt(day + 6 * 3600 - opened),
      500n * USDC * BigInt(day + 6 * 3600 - opened) + 1_500n * USDC * 21_600n,
      500n * USDC * BigInt(day + 6 * 3600 - opened) + 1_500n * USDC * 21_600n + 1_200n * USDC * 21_600n,
    ];
    expect(rows.map((r) => r.cumulative)).toEqual(expected);
    expect(
      (await db().select().from(treasuryAccounts).where(eq(treasuryAccounts.address, treasury.address)))[0]!
        .syncedBlock,
    ).toBeNull();

    // The day's time-weighted average of a company that proved it before the day: the integral by hand.
    await f.company('twab', { createdAt: new Date('2026-01-01T00:00:00Z') });
    await db().execute(sql`
      insert into company_treasuries (id, company_id, address, from_time)
      values ('twab-span', 'twab', ${treasury.address}, to_timestamp(${day - 50}))`);
    const iso = (s: number) => new Date(s * 1000).toISOString();
    const [twab] = rowsOf<{ balance: string }>(await db().execute(treasuryTwab(iso(day), iso(day + DAY_S), null)));
    const integral = 500n * 21_600n + 1_500n * 21_600n + 1_200n * 21_600n + 1_400n * 21_600n;
    expect(BigInt(twab!.balance)).toBe((integral * USDC) / 86_400n);
  });

  it('loses no transfer of an address added while the stream moved past its opening block', async () => {
    const late = privateKeyToAccount(generatePrivateKey()).address;
    await tr.index();
    // Followed from the latest block B (as a proof records it) ...
    const opening = await t.chain.chain.publicClient.getBlock();
    await db().insert(treasuryAccounts).values({ address: late, syncedBlock: opening.number });
    await db().execute(sql`
      insert into treasury_observations (address, block_number, log_index, observed_at, balance, cumulative)
      values (${late}, ${opening.number}, -1, to_timestamp(${Number(opening.timestamp)}), 0, 0)`);
    // ... then two transfers in, which a poll that read its accounts before the address was added would have missed
    // while moving the cursor past them: here the cursor is moved past them by hand.
    const day = await nextDay();
    await tr.mintAt(late, 70n * USDC, day + 60);
    await tr.mintAt(late, 30n * USDC, day + 120);
    const head = await t.chain.chain.publicClient.getBlockNumber();
    await db().update(chainCursors).set({ block: head }).where(eq(chainCursors.name, treasuryTransfers.name));
    await tr.mintAt(late, 5n * USDC, day + 180);
    await tr.index();
    expect((await observations(late)).map((r) => r.balance)).toEqual([0n, 70n, 100n, 105n].map((u) => u * USDC));
    expect(await balanceOf(late)).toBe(105n * USDC);
  });

  it('adds a transfer to the latest observation when the block numbers gain a digit (99, then 102)', async () => {
    const address = privateKeyToAccount(generatePrivateKey()).address;
    const at = (block: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, block));
    const change = (blockNumber: bigint, delta: bigint) => ({
      address,
      blockNumber,
      logIndex: 0,
      time: at(Number(blockNumber)),
      delta,
    });
    await db().transaction(async (tx) => {
      await recordOpeningBalance(tx, address, 95n, at(95), 0n);
      await recordBalanceChanges(tx, [change(99n, 5n * USDC), change(102n, 3n * USDC)]);
    });
    // A later batch starts from block 102's balance, not from 99's (which sorts after '102' as text).
    await db().transaction((tx) => recordBalanceChanges(tx, [change(105n, 2n * USDC)]));
    expect((await observations(address)).map((o) => [o.blockNumber, o.balance])).toEqual([
      [95n, 0n],
      [99n, 5n * USDC],
      [102n, 8n * USDC],
      [105n, 10n * USDC],
    ]);
  });

  it('records nothing twice when a batch is applied again', async () => {
    const again = privateKeyToAccount(generatePrivateKey()).address;
    await followTreasury(t.container, again);
    const day = await nextDay();
    await tr.mintAt(again, 40n * USDC, day + 60);
    const minted = await t.chain.chain.publicClient.getBlockNumber();
    await tr.index();
    const before = await observations(again);
    expect(before.map((r) => r.balance)).toEqual([0n, 40n * USDC]);
    // The cursor moved back before the mint (a database restored from a backup): the range is read and applied again.
    await db()
      .update(chainCursors)
      .set({ block: minted - 1n })
      .where(eq(chainCursors.name, treasuryTransfers.name));
    await followStream(t.container, treasuryTransfers, { confirmations: 0 })!.pollOnce();
    expect(
      (await db().select().from(chainCursors).where(eq(chainCursors.name, treasuryTransfers.name)))[0]!.block,
    ).toBeGreaterThanOrEqual(minted);
    expect(await observations(again)).toEqual(before);
  });

  it('finishes a proof a crash cut after the address was followed', async () => {
    const treasury = privateKeyToAccount(generatePrivateKey());
    await f.company('crashed', { createdAt: new Date('2026-01-01T00:00:00Z') });
    const company = 'crashed';
    // The first attempt followed the address and died before recording the company's treasury.
    await followTreasury(t.container, treasury.address);
    const opening = await observations(treasury.address);
    // The card the route checks: a fixture company's creator is dev account 1, who mints one for it.
    const card = await mintCard(t.chain, 1);
    await db().execute(sql`update companies set card_token_id = ${Number(card)} where id = ${company}`);
    const proven = await tr.prove(1, company, treasury);
    expect(proven).toMatchObject({ treasuryAddress: treasury.address, treasuryStatus: 'PROVEN' });
    expect(await observations(treasury.address)).toEqual(opening);
    expect(
      await db().select().from(treasuryAccounts).where(eq(treasuryAccounts.address, treasury.address)),
    ).toHaveLength(1);
  });
});
