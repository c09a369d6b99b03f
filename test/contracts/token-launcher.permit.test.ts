// TokenLauncher's one-transaction trades: buyWithPermit and sellWithPermit take the trader's EIP-2612 permit (USDC's,
// the company token's) and trade in the same transaction, with no approval before it. A permit that
// someone else submitted first still lets the trade through when the allowance it set is there; a bad permit with no
// allowance ends in LauncherPermitFailed; the trade's deadline is the permit's.

import { PermitMockUSDCAbi } from '@ai-economy/shared/abis';
import { type Address, parseAbi } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadArtifact } from '../../src/chain/artifacts.ts';
import { PERMIT_READS, signPermit } from '../helpers/permit.ts';
import { usdc } from './fixture.ts';
import { useTokenChain } from './token-fixture.ts';

const f = useTokenChain();

/** Account i's permit for the launcher to take `value` of `asset` until `deadline`, signed as a wallet would. */
const permit = (i: number, asset: Address, value: bigint, deadline: bigint) =>
  signPermit(f.client, f.wallet(i), { token: asset, spender: f.launcher(), value, deadline });

const allowance = (asset: Address, owner: Address) =>
  f.client.readContract({ address: asset, abi: PERMIT_READS, functionName: 'allowance', args: [owner, f.launcher()] });
const nowPlus = async (seconds: bigint) => (await f.client.getBlock()).timestamp + seconds;

beforeAll(async () => {
  // Real USDC has EIP-2612 permit. Where the local chain's MockUSDC has none, the same token with permit takes its
  // place (same storage layout: balances, allowances and owner stay).
  const hasPermit = await f.client
    .readContract({ address: f.usdcToken, abi: PERMIT_READS, functionName: 'eip712Domain' })
    .then(() => true)
    .catch(() => false);
  if (hasPermit) return;
  const hash = await f.wallet(0).deployContract({
    abi: PermitMockUSDCAbi,
    bytecode: loadArtifact('PermitMockUSDC').bytecode,
    args: [f.addr(0)],
  });
  const { contractAddress } = await f.client.waitForTransactionReceipt({ hash });
  const code = await f.client.getCode({ address: contractAddress! });
  await f.client.setCode({ address: f.usdcToken, bytecode: code! });
}, 60_000);

describe('buyWithPermit', () => {
  it('buys in one transaction with a USDC permit and no approval before it, exactly as quoted', async () => {
    const token = await f.launchSide('token0');
    const amount = usdc(250);
    expect(await allowance(f.usdcToken, f.addr(3))).toBe(0n);
    const quoted = await f.quoteBuy(token, amount);
    const deadline = await nowPlus(600n);
    const p = await permit(3, f.usdcToken, amount, deadline);
    const nonceBefore = await f.client.readContract({
      address: f.usdcToken,
      abi: PERMIT_READS,
      functionName: 'nonces',
      args: [f.addr(3)],
    });
    const before = await f.client.getTransactionCount({ address: f.addr(3) });
    const receipt = await f.write(3, f.launcherCall('buyWithPermit', [token, amount, quoted, deadline, p.v, p.r, p.s]));
    expect(receipt.status).toBe('success');
    expect(await f.client.getTransactionCount({ address: f.addr(3) })).toBe(before + 1);
    expect(await f.tokensOf(token, f.addr(3))).toBe(quoted);
    expect(await allowance(f.usdcToken, f.addr(3))).toBe(0n);
    expect(
      await f.client.readContract({
        address: f.usdcToken,
        abi: PERMIT_READS,
        functionName: 'nonces',
        args: [f.addr(3)],
      }),
    ).toBe(nonceBefore + 1n);
  });

  it('a permit someone submitted first still lets the buy through (the allowance it set is used)', async () => {
    const token = await f.launchSide('token1');
    const amount = usdc(100);
    const deadline = await nowPlus(600n);
    const p = await permit(3, f.usdcToken, amount, deadline);
    // A watcher copies the permit out of the mempool and submits it on its own.
    await f.send(
      f.wallet(4).writeContract({
        address: f.usdcToken,
        abi: PERMIT_READS,
        functionName: 'permit',
        args: [f.addr(3), f.launcher(), amount, deadline, p.v, p.r, p.s],
      }),
    );
    const quoted = await f.quoteBuy(token, amount);
    await f.write(3, f.launcherCall('buyWithPermit', [token, amount, 0n, deadline, p.v, p.r, p.s]));
    expect(await f.tokensOf(token, f.addr(3))).toBe(quoted);
  });

  it('a permit signed for less than the buy, with no allowance, reverts with LauncherPermitFailed', async () => {
    const token = await f.launchSide('token0');
    const deadline = await nowPlus(600n);
    const p = await permit(3, f.usdcToken, usdc(99), deadline);
    await f.tracedRevert(
      3,
      f.launcherCall('buyWithPermit', [token, usdc(100), 0n, deadline, p.v, p.r, p.s]),
      'LauncherPermitFailed',
      [f.usdcToken],
    );
    expect(await f.tokensOf(token, f.addr(3))).toBe(0n);
  });

  it('the trade deadline is checked first: past it, nothing happens', async () => {
    const token = await f.launchSide('token0');
    const deadline = (await f.client.getBlock()).timestamp - 1n;
    const p = await permit(3, f.usdcToken, usdc(100), deadline);
    const { args } = await f.tracedRevert(
      3,
      f.launcherCall('buyWithPermit', [token, usdc(100), 0n, deadline, p.v, p.r, p.s]),
      'LauncherDeadlinePassed',
    );
    expect(args[0]).toBe(deadline);
    expect(await allowance(f.usdcToken, f.addr(3))).toBe(0n);
  });
});

describe('sellWithPermit', () => {
  it('sells in one transaction with a company token permit (CompanyToken is ERC20Permit, domain = its name, "1")', async () => {
    const token = await f.launchSide('token1');
    await f.ready(2, token);
    await f.buy(2, token, usdc(500));
    const held = await f.tokensOf(token, f.addr(2));
    // Hand the tokens to an account that never approved the launcher.
    await f.send(
      f.wallet(2).writeContract({
        address: token,
        abi: parseAbi(['function transfer(address,uint256) returns (bool)']),
        functionName: 'transfer',
        args: [f.addr(5), held],
      }),
    );
    const [, name, version] = await f.client.readContract({
      address: token,
      abi: PERMIT_READS,
      functionName: 'eip712Domain',
    });
    expect([name, version]).toEqual(['Acme Robotics', '1']);
    const quoted = await f.quoteSell(token, held);
    const usdcBefore = await f.usdcOf(f.addr(5));
    const deadline = await nowPlus(600n);
    const p = await permit(5, token, held, deadline);
    const before = await f.client.getTransactionCount({ address: f.addr(5) });
    await f.write(5, f.launcherCall('sellWithPermit', [token, held, quoted, deadline, p.v, p.r, p.s]));
    expect(await f.client.getTransactionCount({ address: f.addr(5) })).toBe(before + 1);
    expect(await f.tokensOf(token, f.addr(5))).toBe(0n);
    expect((await f.usdcOf(f.addr(5))) - usdcBefore).toBe(quoted);
    expect(await allowance(token, f.addr(5))).toBe(0n);
  });

  it('an unknown token reverts with LauncherUnknownToken before any permit is tried', async () => {
    const stranger = f.usdcToken;
    const deadline = await nowPlus(600n);
    const p = await permit(3, f.usdcToken, 1n, deadline);
    await f.tracedRevert(
      3,
      f.launcherCall('sellWithPermit', [stranger, 1n, 0n, deadline, p.v, p.r, p.s]),
      'LauncherUnknownToken',
      [stranger],
    );
    expect(await allowance(f.usdcToken, f.addr(3))).toBe(0n);
  });
});
