// Reorgs undone exactly, on a chain of the file's own and every registered stream: trades, a launch, a treasury
// transfer, a card transfer and an agent's sweep into its company's Safe (a carried position) are indexed, the chain
// reorganises (anvil_reorg of depth 1 and 3, evm_revert of all of them), new trades follow, and then every table the
// streams write equals a fresh index of the final chain (every stream rewound through the journal to the block before
// the test and read again), and trades, balances, holder counts, card ownership, the carried positions and the
// treasury's balance equal what the chain says. A stream that writes a table it does not declare, or a declared
// table without the journal's trigger, fails here.

import { AccessCardAbi, TokenLauncherAbi } from '@ai-economy/shared/abis';
import { sql } from 'drizzle-orm';
import { type Address, erc20Abi, getAbiItem, getAddress, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { beforeAll, describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import type { LogFollower } from '../../src/chain/indexer.ts';
import { journaledTables, rollbackJournal } from '../../src/chain/journal.ts';
import { type AnyChainStream, followStream } from '../../src/chain/streams.ts';
import { rowsOf } from '../../src/db/client.ts';
import { chainCursors } from '../../src/db/schema/chain.ts';
import { companies } from '../../src/db/schema/companies.ts';
import { CHAIN_STREAMS } from '../../src/domain/streams/registry.ts';
import { followTreasury } from '../../src/domain/treasuries/treasury-transfers.stream.ts';
import { useTestApp } from '../helpers/app.ts';
import { anvilTestClient } from '../helpers/chain.ts';
import { mintCard } from '../helpers/companies.ts';
import { scoreFixtures, USDC } from '../helpers/scores.ts';
import { tokenTrading } from '../helpers/trading.ts';

const t = useTestApp({ chain: { own: true } });
const f = scoreFixtures(t);
const trading = tokenTrading(t);
const db = () => t.database.db;
const anvil = () => anvilTestClient(t.chain.node.rpcUrl, t.chain.chain.viemChain);
const DEADLINE = 2n ** 40n;

/** Bookkeeping a stream's transaction writes besides its tables: the journal (the cursor is written after apply). */
const BOOKKEEPING = new Set(['chain_journal']);
const tableName = (table: object) => (table as Record<symbol, string>)[Symbol.for('drizzle:Name')]!;

/** The tables each stream's `apply` wrote, read from the transaction's own statistics. */
const written = new Map<string, Set<string>>();
/** Every reorg a follower found. */
const reorgs: { stream: string; ancestor: bigint }[] = [];

function watched(stream: AnyChainStream): AnyChainStream {
  return {
    ...stream,
    apply: async (deps, tx, logs, prepared, range) => {
      // The transaction's own row counts of each table, before and after apply.
      const counts = async () =>
        new Map(
          rowsOf<{ relname: string; n: string }>(
            await tx.execute(sql`
              select relname, (n_tup_ins + n_tup_upd + n_tup_del)::text as n from pg_stat_xact_user_tables`),
          ).map((r) => [r.relname, r.n]),
        );
      const before = await counts();
      const result = await stream.apply(deps, tx, logs, prepared, range);
      const set = written.get(stream.name) ?? new Set();
      for (const [table, n] of await counts()) {
        if (n !== (before.get(table) ?? '0') && !BOOKKEEPING.has(table)) set.add(table);
      }
      written.set(stream.name, set);
      return result;
    },
  };
}

let followers: LogFollower[];
async function sync() {
  for (const follower of followers) {
    for (let i = 0; ; i++) {
      if (i > 200) throw new Error(`${follower.name} never caught up`);
      const result = await follower.pollOnce();
      if (result.reorg) reorgs.push({ stream: follower.name, ancestor: result.reorg.ancestor });
      if (result.caughtUp) break;
    }
  }
}

/** Every row of the tables the streams write, as JSON (updated_at left out: it says when, not what). */
async function derived(): Promise<Record<string, string[]>> {
  const tables = [...new Set(CHAIN_STREAMS.flatMap((s) => s.writes.map(tableName)))].sort();
  const out: Record<string, string[]> = {};
  for (const table of tables) {
    const rows = rowsOf<{ row: unknown }>(
      await db().execute(sql`select to_jsonb(x) - 'updated_at' as row from ${sql.identifier(table)} x`),
    );
    out[table] = rows.map((r) => JSON.stringify(r.row)).sort();
  }
  return out;
}

let ra: Address;
/** A company whose card each new branch passes on. */
let rz: { id: string; card: bigint; holder: number };
let treasury: Address;
/** The Safe of a company whose agent's wallet is dev account 3: what dev account 3 sends it carries its position. */
let safe: Address;
let startBlock: bigint;
let seq = 0;

beforeAll(async () => {
  await f.company('ra');
  ra = await trading.launch('ra', 'RRA');
  await trading.buy(2, ra, 40n * USDC);
  await trading.buy(3, ra, 10n * USDC);
  rz = { ...(await company()), holder: 1 };
  safe = privateKeyToAccount(generatePrivateKey()).address;
  await f.company('rs', { safeAddress: safe });
  await f.agent('rs', 'CFO', 'ACTIVE', devAccount(3).address);
  treasury = privateKeyToAccount(generatePrivateKey()).address;
  await followTreasury(t.container, treasury);
  followers = CHAIN_STREAMS.map(
    (s) => followStream(t.container, watched(s), { confirmations: 0, finality: { depth: 1000 }, batchSize: 3 })!,
  );
  await sync();
  startBlock = await t.chain.chain.publicClient.getBlockNumber();
});

/** A company with a card of dev account 1 of its own, its token not launched. */
async function company(): Promise<{ id: string; card: bigint }> {
  const id = `rb${++seq}`;
  const card = await mintCard(t.chain, 1);
  await f.company(id, { cardTokenId: Number(card) });
  return { id, card };
}

/** Dev account `account` buys `token` for `usdc` straight from the launcher (USDC approved in beforeAll's buys). */
const buy = (account: number, token: Address, usdc: bigint) =>
  trading.send(
    t.chain.wallet(account).writeContract({
      address: t.chain.chain.contracts.tokenLauncher!,
      abi: TokenLauncherAbi,
      functionName: 'buy',
      args: [token, usdc, 0n, DEADLINE],
      gas: 3_000_000n,
    }),
  );

/**
 * One block each, in this order: a buy of `ra`, a launch, a treasury transfer, a card transfer, a sweep of some of
 * an agent's `ra` into its company's Safe (which carries its position), a buy of the new token. Returns the new
 * company.
 */
async function activity() {
  const rb = await company();
  const rc = await company();
  await buy(2, ra, 7n * USDC);
  const token = await trading.launch(rb.id, `RB${seq}`);
  await trading.fund(5, treasury, 3n * USDC);
  await trading.send(
    t.chain.wallet(1).writeContract({
      address: t.chain.chain.contracts.accessCard!,
      abi: AccessCardAbi,
      functionName: 'transferFrom',
      args: [devAccount(1).address, devAccount(4).address, rc.card],
    }),
  );
  await trading.send(
    t.chain.wallet(3).writeContract({
      address: ra,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [safe, (await trading.balanceOf(3, ra)) / 4n],
    }),
  );
  await buy(3, token, 5n * USDC);
  return { rb, rc, token };
}

/** New trades, a treasury transfer and a card transfer on the branch the chain took. */
async function newBranch() {
  await trading.buy(4, ra, 2n * USDC);
  const { request } = await t.chain.chain.publicClient.simulateContract({
    account: t.chain.wallet(2).account,
    address: t.chain.chain.contracts.tokenLauncher!,
    abi: TokenLauncherAbi,
    functionName: 'sell',
    args: [ra, (await trading.balanceOf(2, ra)) / 3n, 0n, DEADLINE],
  });
  await trading.send(t.chain.wallet(2).writeContract(request));
  await trading.fund(6, treasury, 1n * USDC);
  const holder = (await t.chain.chain.publicClient.readContract({
    address: t.chain.chain.contracts.accessCard!,
    abi: AccessCardAbi,
    functionName: 'ownerOf',
    args: [rz.card],
  })) as Address;
  const from = [1, 4, 6, 7].find((i) => devAccount(i).address === holder)!;
  const to = from === 7 ? 1 : from === 6 ? 7 : 6;
  await trading.send(
    t.chain.wallet(from).writeContract({
      address: t.chain.chain.contracts.accessCard!,
      abi: AccessCardAbi,
      functionName: 'transferFrom',
      args: [holder, devAccount(to).address, rz.card],
    }),
  );
}

/** What the chain says: every trade log, each indexed token's balances, card holders, the treasury's balance. */
async function expectChainAgrees() {
  const client = t.chain.chain.publicClient;
  const logs = await client.getLogs({
    address: t.chain.chain.contracts.tokenLauncher!,
    event: getAbiItem({ abi: TokenLauncherAbi, name: 'CurveTrade' }),
    fromBlock: 0n,
    toBlock: 'latest',
  });
  const trades = rowsOf<{ tx_hash: Hex; log_index: number }>(
    await db().execute(sql`select tx_hash, log_index from token_trades order by block_number, log_index`),
  );
  expect(trades.map((r) => `${r.tx_hash}:${r.log_index}`)).toEqual(
    logs.map((l) => `${l.transactionHash}:${l.logIndex}`),
  );

  const balances = rowsOf<{ token_address: Address; holder: Address; balance: string }>(
    await db().execute(sql`select token_address, holder, balance::text from token_balances`),
  );
  for (const b of balances) {
    const onChain = await client.readContract({
      address: b.token_address,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [b.holder],
    });
    expect(BigInt(b.balance), `${b.holder} of ${b.token_address}`).toBe(onChain);
  }
  const counts = rowsOf<{ token_address: Address; holders: number }>(
    await db().execute(sql`select token_address, holders from token_holder_counts`),
  );
  for (const c of counts) {
    expect(c.holders).toBe(balances.filter((b) => b.token_address === c.token_address).length);
  }
  const launched = rowsOf<{ token_address: Address }>(
    await db().execute(sql`select token_address from companies where token_status <> 'PRE_PUBLIC'`),
  );
  expect(counts.map((c) => c.token_address).sort()).toEqual(launched.map((l) => l.token_address).sort());

  const cards = await db()
    .select({ card: companies.cardTokenId, creator: companies.creatorAddress })
    .from(companies)
    .where(sql`${companies.id} like 'rb%'`);
  for (const c of cards) {
    // A card minted on a branch that left the chain has no owner: its company keeps the creator it was made with.
    const owner = await client
      .readContract({
        address: t.chain.chain.contracts.accessCard!,
        abi: AccessCardAbi,
        functionName: 'ownerOf',
        args: [BigInt(c.card)],
      })
      .catch(() => devAccount(1).address);
    expect(c.creator).toBe(getAddress(owner));
  }
  // A position carried by each sweep on the chain, and by no other transfer.
  const sweeps = await client.getLogs({
    address: ra,
    event: getAbiItem({ abi: erc20Abi, name: 'Transfer' }),
    args: { from: devAccount(3).address, to: safe },
    fromBlock: 0n,
    toBlock: 'latest',
  });
  const carries = rowsOf<{ tx_hash: Hex; log_index: number }>(
    await db().execute(sql`select tx_hash, log_index from position_carries order by block_number, log_index`),
  );
  expect(sweeps.length).toBeGreaterThan(0);
  expect(carries.map((r) => `${r.tx_hash}:${r.log_index}`)).toEqual(
    sweeps.map((l) => `${l.transactionHash}:${l.logIndex}`),
  );
  const [last] = rowsOf<{ balance: string }>(
    await db().execute(sql`
      select balance::text from treasury_observations where address = ${treasury}
      order by block_number desc, log_index desc limit 1`),
  );
  expect(BigInt(last!.balance)).toBe(await trading.usdcOf(treasury));
}

/**
 * The streams' tables equal a fresh index of the final chain: every stream rewound through its journal to the block
 * before the test's activity, and read again from there.
 */
async function expectFreshIndexAgrees() {
  const after = await derived();
  await db().transaction(async (tx) => {
    for (const stream of CHAIN_STREAMS) {
      const target = await rollbackJournal(tx, stream.name, startBlock);
      expect(target).toBeLessThanOrEqual(startBlock);
      await tx.execute(sql`delete from chain_blocks where stream = ${stream.name} and number > ${target}`);
      await tx.update(chainCursors).set({ block: target }).where(sql`${chainCursors.name} = ${stream.name}`);
    }
  });
  await sync();
  expect(await derived()).toEqual(after);
}

/** A `trade` event (a trade, launch or graduation) as platform_events holds it. */
interface TradeEvent {
  id: bigint;
  key: string;
  data: { kind: string; txHash: Hex; logIndex: number; removed?: boolean } & Record<string, unknown>;
}

async function tradeEvents(): Promise<TradeEvent[]> {
  const rows = rowsOf<{ id: string; data: TradeEvent['data'] | string }>(
    await db().execute(
      sql`select id::text, data from platform_events where type = 'trade' order by platform_events.id`,
    ),
  );
  return rows.map((r) => {
    const data = typeof r.data === 'string' ? JSON.parse(r.data) : r.data;
    return { id: BigInt(r.id), key: `${data.txHash}:${data.logIndex}`, data };
  });
}

/** Whether the log `txHash:logIndex` is on the chain now. */
async function onChain(txHash: Hex, logIndex: number): Promise<boolean> {
  const receipt = await t.chain.chain.publicClient.getTransactionReceipt({ hash: txHash }).catch(() => undefined);
  return Boolean(receipt?.logs.some((l) => l.logIndex === logIndex));
}

/**
 * What the stream told clients across a reorg, `before` being the trade events published until it: each log it had
 * announced that left the chain is told once more, the same event with `removed: true`; a log that stayed is neither
 * told removed nor announced again (though its batch was undone and applied again); each log of the new branch is
 * announced once. The token stream's journal undo keeps the events.
 */
async function expectClientsTold(before: TradeEvent[]) {
  const last = before.at(-1)?.id ?? 0n;
  const announced = new Map(before.filter((e) => !e.data.removed).map((e) => [e.key, e]));
  for (const e of before) if (e.data.removed) announced.delete(e.key);
  const after = (await tradeEvents()).filter((e) => e.id > last);
  const removed = after.filter((e) => e.data.removed);
  const told = after.filter((e) => !e.data.removed);

  const left: TradeEvent[] = [];
  for (const e of announced.values()) if (!(await onChain(e.data.txHash, e.data.logIndex))) left.push(e);
  expect(left.length).toBeGreaterThan(0);
  expect(left.some((e) => e.data.kind === 'trade')).toBe(true);
  expect(removed.map((e) => e.key).sort()).toEqual(left.map((e) => e.key).sort());
  for (const e of removed) expect(e.data).toEqual({ ...announced.get(e.key)!.data, removed: true });
  // Every correction comes before the new branch's announcements.
  if (told.length > 0) expect(removed.every((r) => r.id < told[0]!.id)).toBe(true);

  expect(told.filter((e) => announced.has(e.key) && !left.includes(announced.get(e.key)!))).toEqual([]);
  const trades = rowsOf<{ tx_hash: Hex; log_index: number }>(
    await db().execute(sql`select tx_hash, log_index from token_trades`),
  );
  const fresh = trades.map((r) => `${r.tx_hash}:${r.log_index}`).filter((k) => !announced.has(k));
  expect(fresh.length).toBeGreaterThan(0);
  expect(
    told
      .filter((e) => e.data.kind === 'trade')
      .map((e) => e.key)
      .sort(),
  ).toEqual(fresh.sort());
}

describe('a reorg undoes every stream exactly', () => {
  it('every stream declares the tables it writes, and each is journaled', async () => {
    const journaled = new Set(await journaledTables(db()));
    for (const stream of CHAIN_STREAMS) {
      for (const table of stream.writes)
        expect(journaled, `${stream.name}: ${tableName(table)}`).toContain(tableName(table));
    }
  });

  it.each([
    1, 3,
  ])('anvil_reorg of depth %i while trades, a launch, a treasury and a card transfer and a sweep into a Safe happen', async (depth) => {
    reorgs.length = 0;
    const { token } = await activity();
    await sync();
    const indexed = rowsOf(await db().execute(sql`select 1 from token_trades where token_address = ${token}`));
    expect(indexed).toHaveLength(1);
    const told = await tradeEvents();
    await anvil().request({ method: 'anvil_reorg' as never, params: [depth, []] as never });
    await newBranch();
    await sync();
    expect(reorgs.length).toBeGreaterThan(0);
    await expectChainAgrees();
    await expectClientsTold(told);
    const events = await tradeEvents();
    await expectFreshIndexAgrees();
    // Indexing the same chain again tells clients nothing new.
    expect(await tradeEvents()).toEqual(events);
  });

  it('evm_revert of the whole activity (the launch too), then a new branch', async () => {
    reorgs.length = 0;
    const snapshot = await anvil().snapshot();
    const { rb } = await activity();
    await sync();
    const [launched] = await db().select().from(companies).where(sql`${companies.id} = ${rb.id}`);
    expect(launched!.tokenStatus).toBe('BONDING');
    const told = await tradeEvents();
    await anvil().revert({ id: snapshot });
    await newBranch();
    await newBranch();
    await sync();
    await expectClientsTold(told);
    // The launch that left the chain is among the corrections.
    const launch = told.find((e) => e.data.kind === 'launch' && e.data.companySlug === rb.id);
    expect(launch).toBeDefined();
    expect((await tradeEvents()).filter((e) => e.key === launch!.key && e.data.removed)).toHaveLength(1);
    expect(reorgs.map((r) => r.stream).sort()).toEqual(CHAIN_STREAMS.map((s) => s.name).sort());
    const [undone] = await db().select().from(companies).where(sql`${companies.id} = ${rb.id}`);
    expect(undone!.tokenStatus).toBe('PRE_PUBLIC');
    await expectChainAgrees();
    await expectFreshIndexAgrees();
  });

  it('no stream writes a table it does not declare', () => {
    for (const stream of CHAIN_STREAMS) {
      const declared = new Set(stream.writes.map(tableName));
      if (stream.publishes) declared.add('platform_events');
      expect(
        [...(written.get(stream.name) ?? [])].filter((t) => !declared.has(t)),
        stream.name,
      ).toEqual([]);
    }
    expect(written.size).toBe(CHAIN_STREAMS.length);
  });
});
