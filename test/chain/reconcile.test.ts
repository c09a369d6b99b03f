// `cli reconcile`: every table the chain streams derive compared with a fresh index of the chain. A database the
// streams wrote has nothing to report; a corrupted, a deleted and an orphan row (and a card holder and a treasury
// balance gone wrong) are each found and said in words, the command exits 1, --fix repairs them in one transaction,
// and a second run finds nothing. Reconciling leaves no trace: no event, no journal entry, no row changed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AccessCardAbi } from '@ai-economy/shared/abis';
import { sql } from 'drizzle-orm';
import { type Address, getAddress, toHex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { beforeAll, describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import { writeContractsFile } from '../../src/chain/contracts/addresses.ts';
import { type Difference, describeDifference, reconcile } from '../../src/chain/reconcile.ts';
import { followStream } from '../../src/chain/streams.ts';
import { CliFailure } from '../../src/cli/api-key-stores.ts';
import { runCli } from '../../src/cli/main.ts';
import { printReconciliation } from '../../src/cli/reconcile.ts';
import { openDatabase, rowsOf } from '../../src/db/client.ts';
import { CHAIN_STREAMS } from '../../src/domain/streams/registry.ts';
import { followTreasury } from '../../src/domain/treasuries/treasury-transfers.stream.ts';
import { useTestApp } from '../helpers/app.ts';
import { mintCard } from '../helpers/companies.ts';
import { runCli as runCliProcess } from '../helpers/process.ts';
import { scoreFixtures, USDC } from '../helpers/scores.ts';
import { tokenTrading } from '../helpers/trading.ts';

const t = useTestApp();
const f = scoreFixtures(t);
const trading = tokenTrading(t);
const db = () => t.database.db;

let token: Address;
let treasury: Address;
let cardCompany: string;

async function sync() {
  for (const stream of CHAIN_STREAMS) {
    const follower = followStream(t.container, stream, { confirmations: 0, finality: { depth: 1000 } })!;
    for (let i = 0; ; i++) {
      if (i > 50) throw new Error(`${stream.name} never caught up`);
      if ((await follower.pollOnce()).caughtUp) break;
    }
  }
}

/** Every row of the streams' tables and the bookkeeping around them, as JSON (updated_at left out). */
async function everything(): Promise<Record<string, string[]>> {
  const tables = ['companies', 'agents', 'token_trades', 'trader_positions', 'token_holder_counts', 'token_balances'];
  tables.push('treasury_accounts', 'treasury_observations', 'platform_events', 'chain_journal', 'chain_cursors');
  const out: Record<string, string[]> = {};
  for (const table of tables) {
    const rows = rowsOf<{ row: unknown }>(
      await db().execute(sql`select to_jsonb(x) - 'updated_at' as row from ${sql.identifier(table)} x`),
    );
    out[table] = rows.map((r) => JSON.stringify(r.row)).sort();
  }
  return out;
}

const find = (ds: Difference[], table: string) => ds.filter((d) => d.table === table);

beforeAll(async () => {
  await f.company('ka');
  token = await trading.launch('ka', 'KKA');
  await trading.buy(2, token, 30n * USDC);
  await trading.buy(3, token, 10n * USDC);
  await trading.sell(2, token, (await trading.balanceOf(2, token)) / 4n);
  const card = await mintCard(t.chain, 1);
  cardCompany = 'kc';
  await f.company(cardCompany, { cardTokenId: Number(card) });
  await trading.send(
    t.chain.wallet(1).writeContract({
      address: t.chain.chain.contracts.accessCard!,
      abi: AccessCardAbi,
      functionName: 'transferFrom',
      args: [devAccount(1).address, devAccount(4).address, card],
    }),
  );
  treasury = privateKeyToAccount(generatePrivateKey()).address;
  await followTreasury(t.container, treasury);
  await trading.fund(5, treasury, 3n * USDC);
  await trading.fund(6, treasury, 2n * USDC);
  await sync();
});

describe('cli reconcile', () => {
  it('finds nothing in a database the streams wrote, compares every stream at its cursor, and leaves no trace', async () => {
    const before = await everything();
    const report = await reconcile(t.container, CHAIN_STREAMS);
    expect(report.differences).toEqual([]);
    expect(report.fixed).toBe(false);
    const head = await t.chain.chain.publicClient.getBlockNumber();
    expect(report.streams.map((s) => [s.stream, s.at])).toEqual(CHAIN_STREAMS.map((s) => [s.name, head]));
    // The replay really ran: the trades it derived were there to compare (a trade row is per log).
    expect(rowsOf(await db().execute(sql`select 1 from token_trades where token_address = ${token}`))).toHaveLength(3);
    expect(await everything()).toEqual(before);
    const lines: string[] = [];
    await printReconciliation(t.container, CHAIN_STREAMS, {}, (l) => lines.push(l));
    expect(lines.at(-1)).toBe('The database equals a fresh index of the chain.');
    expect(lines).toContain(`company-tokens: compared at block ${head}: 0 differences.`);
  });

  it('finds a corrupted, a deleted and an orphan row, says each, exits 1; --fix repairs them; a second run finds none', async () => {
    const before = await everything();
    const trader2 = devAccount(2).address.toLowerCase();
    const stranger = getAddress(privateKeyToAccount(generatePrivateKey()).address);
    const [deleted] = rowsOf<{ tx_hash: string; log_index: number }>(
      await db().execute(sql`
        select tx_hash, log_index from token_trades where token_address = ${token} and side = 'buy'
        order by block_number desc limit 1`),
    );
    await db().execute(sql`
      update trader_positions set quantity = quantity + 7 where trader = ${trader2} and token_address = ${token}`);
    await db().execute(
      sql`delete from token_trades where tx_hash = ${deleted!.tx_hash} and log_index = ${deleted!.log_index}`,
    );
    await db().execute(
      sql`insert into token_balances (token_address, holder, balance) values (${token}, ${stranger}, 5)`,
    );
    await db().execute(sql`update companies set creator_address = ${devAccount(7).address} where id = ${cardCompany}`);
    await db().execute(sql`
      update treasury_observations set balance = balance + 1
      where address = ${treasury} and log_index >= 0 and block_number = (
        select max(block_number) from treasury_observations where address = ${treasury})`);

    const found = await reconcile(t.container, CHAIN_STREAMS);
    const positions = find(found.differences, 'trader_positions');
    expect(positions).toHaveLength(1);
    expect(positions[0]!.columns).toEqual(['quantity']);
    expect(BigInt(positions[0]!.database!.quantity as string)).toBe(
      BigInt(positions[0]!.chain!.quantity as string) + 7n,
    );
    const trades = find(found.differences, 'token_trades');
    expect(trades.map((d) => [d.key, d.database === null, d.chain?.side])).toEqual([
      [{ tx_hash: deleted!.tx_hash, log_index: String(deleted!.log_index) }, true, 'buy'],
    ]);
    expect(find(found.differences, 'token_balances').map((d) => [d.key, d.chain, d.database?.balance])).toEqual([
      [{ token_address: token, holder: stranger }, null, '5'],
    ]);
    const creators = find(found.differences, 'companies');
    expect(creators.map((d) => [d.key, d.columns, d.database!.creator_address, d.chain!.creator_address])).toEqual([
      [{ id: cardCompany }, ['creator_address'], devAccount(7).address, devAccount(4).address],
    ]);
    const observations = find(found.differences, 'treasury_observations');
    expect(observations.map((d) => d.columns)).toEqual([['balance']]);
    expect(found.differences).toHaveLength(5);

    // In words: table, key, the database's value, the chain's value.
    expect(describeDifference(positions[0]!)).toBe(
      `trader_positions (trader=${trader2} token_address=${token}): quantity: database ${JSON.stringify(
        positions[0]!.database!.quantity,
      )}, chain ${JSON.stringify(positions[0]!.chain!.quantity)}`,
    );
    expect(describeDifference(trades[0]!)).toMatch(
      new RegExp(
        `^token_trades \\(tx_hash=${deleted!.tx_hash} log_index=${deleted!.log_index}\\): missing from the database; the chain has .*side="buy"`,
      ),
    );
    expect(describeDifference(find(found.differences, 'token_balances')[0]!)).toBe(
      `token_balances (token_address=${token} holder=${stranger}): the database has balance="5"; not on the chain`,
    );
    const lines: string[] = [];
    const printed = printReconciliation(t.container, CHAIN_STREAMS, {}, (l) => lines.push(l));
    await expect(printed).rejects.toThrow(CliFailure);
    await expect(printed).rejects.toThrow(
      /5 differences between the database and the chain \(run again with --fix to repair them\)/,
    );
    for (const d of found.differences) expect(lines).toContain(`  ${describeDifference(d)}`);
    // Finding changes nothing.
    expect(find((await reconcile(t.container, CHAIN_STREAMS)).differences, 'token_trades')).toHaveLength(1);

    const fixed = await reconcile(t.container, CHAIN_STREAMS, { fix: true });
    expect(fixed.fixed).toBe(true);
    expect(fixed.differences).toHaveLength(5);
    expect((await reconcile(t.container, CHAIN_STREAMS)).differences).toEqual([]);
    const after = await everything();
    // The repaired rows are the streams' own again (the positions' and trades' timestamps of writing aside).
    expect(after).toEqual(before);
  });

  it('--from limits the rows of single logs reported; the sums over history are always compared', async () => {
    const head = await t.chain.chain.publicClient.getBlockNumber();
    await db().execute(sql`update token_trades set usdc_amount = usdc_amount + 1 where token_address = ${token}`);
    await db().execute(sql`update token_holder_counts set holders = holders + 1 where token_address = ${token}`);
    try {
      const late = await reconcile(t.container, CHAIN_STREAMS, { from: head + 1n });
      expect(late.differences.map((d) => d.table)).toEqual(['token_holder_counts']);
      const all = await reconcile(t.container, CHAIN_STREAMS, { from: 0n });
      expect(all.differences.map((d) => d.table).sort()).toEqual([
        'token_holder_counts',
        'token_trades',
        'token_trades',
        'token_trades',
      ]);
    } finally {
      await reconcile(t.container, CHAIN_STREAMS, { fix: true });
    }
    expect((await reconcile(t.container, CHAIN_STREAMS)).differences).toEqual([]);
  });

  it('--to below a cursor compares the database as the journal had it there; refuses --fix there and below the finalized block', async () => {
    const [cursor] = rowsOf<{ block: string }>(
      await db().execute(sql`select block::text from chain_cursors where name = 'company-tokens'`),
    );
    await trading.buy(3, token, 2n * USDC);
    await sync();
    const at = BigInt(cursor!.block);
    // The database after the buy, rewound by the journal to `at`, equals the chain's index up to `at`.
    const earlier = await reconcile(t.container, CHAIN_STREAMS, { to: at });
    expect(earlier.differences).toEqual([]);
    expect(earlier.streams.find((s) => s.stream === 'company-tokens')!.at).toBe(at);
    await expect(reconcile(t.container, CHAIN_STREAMS, { to: at, fix: true })).rejects.toThrow(
      /--fix repairs the rows as they are now/,
    );
    // Blocks the follower saw finalized have no journal left: nothing to rewind the database with.
    await trading.buy(2, token, 1n * USDC);
    const follower = followStream(t.container, CHAIN_STREAMS.find((s) => s.name === 'company-tokens')!, {
      confirmations: 0,
      finality: { depth: 1 },
    })!;
    expect((await follower.pollOnce()).caughtUp).toBe(true);
    await expect(reconcile(t.container, CHAIN_STREAMS, { to: at })).rejects.toThrow(
      /company-tokens: the database keeps no history below its finalized block/,
    );
    await sync();
    expect((await reconcile(t.container, CHAIN_STREAMS)).differences).toEqual([]);
  });

  it('the command line: block numbers checked before anything opens; the chain of CHAIN_RPC_URL required', async () => {
    const run = async (args: string[], env: Record<string, string> = {}) => {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runCli(args, env, { out: (l) => out.push(l), err: (l) => err.push(l) });
      return { code, out: out.join('\n'), err: err.join('\n') };
    };
    for (const [args, message] of [
      [['reconcile', '--from', 'x'], /--from must be a block number/],
      [['reconcile', '--to=-1'], /--to must be a block number \(0 or more\), not -1/],
      [['reconcile', '--from', '9', '--to', '3'], /--from 9 is above --to 3/],
      [['reconcile', 'extra'], /unexpected argument extra/],
      [['migrate', '--fix'], /migrate takes no --from, --to or --fix/],
    ] as const) {
      const res = await run([...args]);
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.err).toMatch(message);
    }
    const res = await run(['reconcile'], { DATA_DIR: '/nonexistent-reconcile' });
    expect(res.code).toBe(1);
    expect(res.err).toMatch(/reconcile reads the chain of CHAIN_RPC_URL and CONTRACTS_FILE/);
    expect((await run(['--help'])).out).toMatch(/reconcile \[--from N\] \[--to M\] \[--fix\]/);
  });
});

describe('cli reconcile as a process', () => {
  it('exits 1 naming each difference, repairs them with --fix (exit 0), and then finds none (exit 0)', async () => {
    // The embedded database of a service's data directory, indexed here, then closed for the command to open.
    const dir = mkdtempSync(path.join(tmpdir(), 'reconcile-'));
    try {
      const contractsFile = path.join(dir, 'contracts.json');
      writeContractsFile(contractsFile, t.chain.file);
      const database = await openDatabase({ dataDir: path.join(dir, 'pg') });
      try {
        const deps = { database, chain: t.chain.chain, config: t.container.config };
        for (const stream of CHAIN_STREAMS) {
          const follower = followStream(deps, stream, { confirmations: 0 })!;
          while (!(await follower.pollOnce()).caughtUp) {}
        }
        const [held] = rowsOf<{ holder: string }>(
          await database.db.execute(sql`select holder from token_balances where token_address = ${token} limit 1`),
        );
        await database.db.execute(
          sql`update token_balances set balance = balance * 2 where token_address = ${token} and holder = ${held!.holder}`,
        );
      } finally {
        await database.close();
      }
      const env = {
        DATA_DIR: dir,
        CHAIN_RPC_URL: t.chain.node.rpcUrl,
        CONTRACTS_FILE: contractsFile,
        CHAIN_ID: '31337',
        PLATFORM_PRIVATE_KEY: toHex(devAccount(0).getHdKey().privateKey!),
      };
      const found = await runCliProcess(['reconcile'], env);
      expect(found.code, found.stderr).toBe(1);
      expect(found.stdout).toMatch(/^Database: the embedded PGlite; chain 31337 \(the chain of CHAIN_RPC_URL\)\.$/m);
      expect(found.stdout).toMatch(/^company-token-holders: compared at block \d+: 1 difference\.$/m);
      expect(found.stdout).toMatch(
        new RegExp(
          `^  token_balances \\(token_address=${token} holder=0x[0-9a-fA-F]{40}\\): balance: database "\\d+", chain "\\d+"$`,
          'm',
        ),
      );
      expect(found.stderr).toMatch(
        /1 difference between the database and the chain \(run again with --fix to repair them\)/,
      );
      // Its variations in process (what the process runs): --fix repairs, and a second run finds nothing.
      const inProcess = async (args: string[]) => {
        const out: string[] = [];
        const err: string[] = [];
        const code = await runCli(args, env, { out: (l) => out.push(l), err: (l) => err.push(l) });
        return { code, stdout: out.join('\n'), stderr: err.join('\n') };
      };
      const fixed = await inProcess(['reconcile', '--fix']);
      expect(fixed.code, fixed.stderr).toBe(0);
      expect(fixed.stdout).toMatch(/Repaired 1 difference in one transaction/);
      const clean = await inProcess(['reconcile']);
      expect(clean.code, clean.stderr).toBe(0);
      expect(clean.stdout.split('\n').at(-1)).toBe('The database equals a fresh index of the chain.');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
