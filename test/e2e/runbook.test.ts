// docs/operations.md "Going live on Base", steps 5 and "Handing the keys over", run step by step on a local chain
// with the real CLI (in process): a deployment made before the timelock, which the service's hot key owns and
// administers (what audit round four found), is handed over with `cli deploy --owner`, then the Safe accepts the
// primary token's admin role through the timelock two days later. `cli keys` is read after each step.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AccessCardAbi, PlatformTimelockAbi, PrimaryTokenAbi } from '@ai-economy/shared/abis';
import { encodeFunctionData, toHex, zeroHash } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnvilNode, startAnvil } from '../../src/chain/anvil.ts';
import { createChainClients, devAccount } from '../../src/chain/client.ts';
import { readContractsFile, writeContractsFile } from '../../src/chain/contracts/addresses.ts';
import { deployLocalContracts } from '../../src/chain/deploy.ts';
import { runCli } from '../../src/cli/main.ts';
import { anvilTestClient } from '../helpers/chain.ts';

let node: AnvilNode;
const dir = mkdtempSync(path.join(tmpdir(), 'aie-runbook-'));
const contractsFile = path.join(dir, 'contracts.json');
const hotKey = toHex(devAccount(0).getHdKey().privateKey!);
const safe = devAccount(8);

beforeAll(async () => {
  node = await startAnvil();
}, 60_000);
afterAll(async () => {
  await node?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function cli(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const env = {
    CHAIN_RPC_URL: node.rpcUrl,
    CONTRACTS_FILE: contractsFile,
    PLATFORM_PRIVATE_KEY: hotKey,
    DATA_DIR: dir,
  };
  const code = await runCli(args, env, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

describe('handing the keys of an older deployment over', () => {
  it('ends with the hot key holding only its daily powers, as cli keys shows after each step', async () => {
    const clients = createChainClients({ chainId: 31337, rpcUrl: node.rpcUrl, local: true, timeoutMs: 10_000 });
    // Before: the deployment as the platform made it before the timelock owned the contracts, the hot key owning everything.
    writeContractsFile(
      contractsFile,
      await deployLocalContracts(clients, undefined, { baseUrl: 'http://x', owner: null }),
    );
    const before = await cli('keys');
    expect(before.code, before.stderr).toBe(0);
    expect(before.stdout).toContain('the deployment has no timelock owning its contracts');
    expect(before.stdout).toMatch(
      /accessCard\s+owner\s+owner\s+0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266\s+<- SERVICE KEY/,
    );

    // Step 1: deploy again with the owner.
    const handed = await cli('deploy', '--owner', safe.address);
    expect(handed.code, handed.stderr).toBe(0);
    expect(handed.stdout).toContain("the primary token's admin is still the deployer");
    const c = readContractsFile(contractsFile)!.contracts;
    const timelock = c.timelock!;
    const middle = await cli('keys');
    expect(middle.stdout).toContain(`Timelock ${timelock}: delay 172800 s (2 days).`);
    // Every contract is the timelock's now; only the token's admin waits for its two days.
    const problems = middle.stdout.slice(middle.stdout.indexOf('Problems:')).split('\n').slice(1);
    expect(problems.map((l) => l.trim())).toEqual([
      "the service's key 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266 holds DEFAULT_ADMIN_ROLE of the primaryToken",
    ]);

    // Step 2: the Safe schedules the acceptance through the timelock; it cannot run before two days.
    const safeWallet = clients.walletOf(safe);
    const accept = encodeFunctionData({ abi: PrimaryTokenAbi, functionName: 'acceptDefaultAdminTransfer' });
    const op = [c.primaryToken!, 0n, accept, zeroHash, zeroHash] as const;
    const send = async (functionName: 'schedule' | 'execute', args: readonly unknown[]) => {
      const hash = await safeWallet.writeContract({
        address: timelock,
        abi: PlatformTimelockAbi,
        functionName,
        args,
        gas: 500_000n,
      } as never);
      return (await clients.publicClient.waitForTransactionReceipt({ hash })).status;
    };
    expect(await send('schedule', [...op, 172_800n])).toBe('success');
    expect(await send('execute', op)).toBe('reverted');
    const test = anvilTestClient(node.rpcUrl);
    // Two days and a minute: both waits (the timelock's and the token's own admin delay, begun at the deployment)
    // are over, whatever seconds the steps above took.
    await test.increaseTime({ seconds: 172_800 + 60 });
    await test.mine({ blocks: 1 });
    expect(await send('execute', op)).toBe('success');

    const after = await cli('keys');
    expect(after.stdout).toContain("No key of the service holds an owner's power.");
    expect(after.stdout).toMatch(new RegExp(`primaryToken\\s+owner\\s+DEFAULT_ADMIN_ROLE\\s+${timelock}`));
    // The hot key still does its daily work: it stops card sales in an emergency, and cannot reopen them.
    const card = { address: c.accessCard!, abi: AccessCardAbi } as const;
    await clients.publicClient.waitForTransactionReceipt({
      hash: await clients.platform.writeContract({ ...card, functionName: 'pauseMinting' }),
    });
    expect(await clients.publicClient.readContract({ ...card, functionName: 'mintActive' })).toBe(false);
  }, 240_000);
});
