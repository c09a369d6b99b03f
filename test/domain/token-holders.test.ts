// The holder stream (src/domain/tokens/holders.ts) on a real chain and database: a company token's balances and
// holder count match what the chain says after buys, a plain ERC-20 transfer and a sale of everything; a batch
// applied twice counts nothing twice; and a stream started from nothing (a new deployment, or the cursor reset)
// rebuilds the same counts from the launcher's deployment.
import { eq, sql } from 'drizzle-orm';
import { type Address, erc20Abi, getAddress, zeroAddress } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import { companyTokenTransfers, launchesIn } from '../../src/chain/contracts/launcher.ts';
import { followStream } from '../../src/chain/streams.ts';
import { chainCursors } from '../../src/db/schema/chain.ts';
import { tokenBalances, tokenHolderCounts } from '../../src/db/schema/tokens.ts';
import {
  applyHolderLogs,
  companyTokenHolders,
  type HolderLog,
  holderCountsOf,
} from '../../src/domain/tokens/company-token-holders.stream.ts';
import { useTestApp } from '../helpers/app.ts';
import { scoreFixtures, USDC } from '../helpers/scores.ts';
import { tokenTrading } from '../helpers/trading.ts';

const t = useTestApp();
const f = scoreFixtures(t);
const trading = tokenTrading(t);
const db = () => t.database.db;

/** The holders the chain has: every address a Transfer named, kept when its balance is positive. */
async function chainHolders(token: Address): Promise<Map<string, bigint>> {
  const chain = t.chain.chain;
  const logs = await companyTokenTransfers(chain, [token], chain.deployBlocks?.tokenLauncher ?? 0n, await head());
  const named = new Set(logs.flatMap((l) => [l.args.from, l.args.to]).filter((a) => a !== zeroAddress));
  const holders = new Map<string, bigint>();
  for (const address of named) {
    const balance = await chain.publicClient.readContract({
      address: token,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [address],
    });
    if (balance > 0n) holders.set(getAddress(address), balance);
  }
  return holders;
}
const head = () => t.chain.chain.publicClient.getBlockNumber();
async function storedHolders(token: Address) {
  const rows = await db().select().from(tokenBalances).where(eq(tokenBalances.tokenAddress, token));
  return new Map(rows.map((r) => [r.holder, r.balance]));
}
const countOf = async (token: Address) => (await holderCountsOf(db(), [token])).get(token);

describe('the holder stream', () => {
  it('counts the addresses with a positive balance, as the chain has them, through buys, a transfer and a sale', async () => {
    await f.company('holders-a');
    const token = await trading.launch('holders-a', 'HOLDA');
    await trading.index();
    // Right after the launch the launcher holds the whole supply: one holder.
    expect(await countOf(token)).toBe(1);

    await trading.buy(2, token, 50n * USDC);
    await trading.buy(3, token, 20n * USDC);
    const outsider = privateKeyToAccount(generatePrivateKey()).address;
    const half = (await trading.balanceOf(2, token)) / 2n;
    await trading.send(
      t.chain
        .wallet(2)
        .writeContract({ address: token, abi: erc20Abi, functionName: 'transfer', args: [outsider, half] }),
    );
    await trading.sell(3, token, await trading.balanceOf(3, token));
    await trading.index();

    const expected = await chainHolders(token);
    // The launcher (the curve's unsold tokens), account 2 and the outsider; account 3 sold everything.
    expect(expected.has(devAccount(3).address)).toBe(false);
    expect(expected.has(outsider)).toBe(true);
    expect(await storedHolders(token)).toEqual(expected);
    expect(await countOf(token)).toBe(expected.size);
    expect(expected.size).toBe(3);
    // The supply, minted less burned, is the token's totalSupply.
    const [row] = await db().select().from(tokenHolderCounts).where(eq(tokenHolderCounts.tokenAddress, token));
    const totalSupply = await t.chain.chain.publicClient.readContract({
      address: token,
      abi: erc20Abi,
      functionName: 'totalSupply',
    });
    expect(row!.supply).toBe(totalSupply);
    expect(totalSupply).toBe(10n ** 24n);
  });

  it('counts nothing twice when a batch is applied again', async () => {
    await f.company('holders-b');
    const token = await trading.launch('holders-b', 'HOLDB');
    await trading.buy(4, token, 30n * USDC);
    await trading.buy(5, token, 30n * USDC);
    await trading.index();
    const before = await countOf(token);
    const balances = await storedHolders(token);
    expect(before).toBe(3);

    // The same logs again, as a replica that read the range before the cursor moved would apply them.
    const chain = t.chain.chain;
    const from = chain.deployBlocks?.tokenLauncher ?? 0n;
    const to = await head();
    const logs = [...(await launchesIn(chain, from, to)), ...(await companyTokenTransfers(chain, [token], from, to))];
    logs.sort((a, b) =>
      a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1,
    );
    const counted = await db().transaction((tx) => applyHolderLogs(tx, logs as HolderLog[]));
    expect(counted).toBe(0);
    expect(await countOf(token)).toBe(before);
    expect(await storedHolders(token)).toEqual(balances);
  });

  it('rebuilds the same counts from the launcher deployment when started from nothing', async () => {
    await trading.index();
    const counts = await db().select().from(tokenHolderCounts).orderBy(tokenHolderCounts.tokenAddress);
    expect(counts.length).toBeGreaterThanOrEqual(2);
    const balances = await db().select({ n: sql<number>`count(*)::int` }).from(tokenBalances);

    await db().delete(tokenBalances);
    await db().delete(tokenHolderCounts);
    await db().delete(chainCursors).where(eq(chainCursors.name, companyTokenHolders.name));
    // Small batches, so the rebuild spans several polls.
    const follower = followStream(t.container, companyTokenHolders, { confirmations: 0, batchSize: 5 })!;
    for (let i = 0; i < 1000 && !(await follower.pollOnce()).caughtUp; i++);

    expect(await db().select().from(tokenHolderCounts).orderBy(tokenHolderCounts.tokenAddress)).toEqual(counts);
    expect(await db().select({ n: sql<number>`count(*)::int` }).from(tokenBalances)).toEqual(balances);
  });
});
