// The wiring steps of a deployment (src/chain/deploy.ts): the fee hook at its mined CREATE2 address, the links
// between the contracts, and the development chain's funding. Each reads the chain first and does only what is
// missing, so a resumed deployment repeats none of them.

import {
  AccessCardAbi,
  EmissionTokenAbi,
  MockUSDCAbi,
  PlatformFeeHookAbi,
  PrimaryTokenAbi,
  StakingAbi,
  TokenLauncherAbi,
} from '@ai-economy/shared/abis';
import { type Address, encodeDeployData, encodeFunctionData, type Hex, parseUnits, zeroAddress } from 'viem';
import { loadArtifact } from './artifacts.ts';
import type { ChainClients } from './client.ts';
import { devAddresses } from './client.ts';
import { CREATE2_DEPLOYER, create2Calldata, FEE_HOOK_FLAGS, mineHookSalt } from './hook-address.ts';

/** Dev accounts 1-9 start with this much mock USDC (docs/operations.md "The local chain"). */
export const DEV_USDC_GRANT = parseUnits('1000000', 6);

/** Dev accounts 1-9 start with this much primary token (docs/operations.md "The local chain"). */
export const DEV_PRIMARY_GRANT = parseUnits('1000000', 18);

/**
 * Default emission rate of the staking contract: a 12.5% base APY when 1,000,000 primary tokens of effective
 * stake sit in the pools (125,000 emission tokens a year, about 0.00396 a second). The APY falls as the stake
 * grows; the owner changes the rate with `setEmissionPerSecond`.
 */
export const DEFAULT_EMISSION_PER_SECOND = parseUnits('125000', 18) / 31_536_000n;
/** Allocation points of pool 0 (the primary token), the only pool at first. */
export const PRIMARY_POOL_ALLOC_POINT = 100n;

export async function hasCode(clients: ChainClients, address: Address | undefined): Promise<boolean> {
  if (!address) return false;
  const code = await clients.publicClient.getCode({ address });
  return code !== undefined && code !== '0x';
}

export interface FeeHookArgs {
  poolManager: Address;
  launcher: Address;
  usdc: Address;
  feeRecipient: Address;
  owner: Address;
}

/** Init code of the fee hook (and its constructor arguments) and the CREATE2 salt and address that carry its
 * permission bits. */
export function feeHookDeployment(args: FeeHookArgs): {
  initCode: Hex;
  constructorArgs: readonly [Address, Address, Address, Address, Address];
  salt: Hex;
  address: Address;
} {
  const constructorArgs = [args.poolManager, args.launcher, args.usdc, args.feeRecipient, args.owner] as const;
  const initCode = encodeDeployData({
    abi: PlatformFeeHookAbi,
    bytecode: loadArtifact('PlatformFeeHook').bytecode,
    args: constructorArgs,
  });
  return { initCode, constructorArgs, ...mineHookSalt(initCode, FEE_HOOK_FLAGS) };
}

/** Deploys the fee hook through the CREATE2 deployer (idempotent: an address with code is left alone). */
export async function deployFeeHook(
  clients: ChainClients,
  { initCode, salt, address }: ReturnType<typeof feeHookDeployment>,
): Promise<{ block: bigint }> {
  if (await hasCode(clients, address)) return { block: await clients.publicClient.getBlockNumber({ cacheTime: 0 }) };
  if (!(await hasCode(clients, CREATE2_DEPLOYER))) {
    throw new Error(`the chain has no CREATE2 deployer at ${CREATE2_DEPLOYER}; the fee hook cannot be deployed`);
  }
  const hash = await clients.platform.sendTransaction({ to: CREATE2_DEPLOYER, data: create2Calldata(salt, initCode) });
  const receipt = await clients.publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success' || !(await hasCode(clients, address))) {
    throw new Error(`deployment of PlatformFeeHook at ${address} failed (${hash})`);
  }
  return { block: receipt.blockNumber };
}

/** Points the launcher at the fee hook, once. */
export async function connectFeeHook(clients: ChainClients, launcher: Address, hook: Address): Promise<void> {
  const current = await clients.publicClient.readContract({
    address: launcher,
    abi: TokenLauncherAbi,
    functionName: 'feeHook',
  });
  if (current !== zeroAddress) return;
  await sendAndWait(
    clients,
    clients.platform.writeContract({
      address: launcher,
      abi: TokenLauncherAbi,
      functionName: 'setFeeHook',
      args: [hook],
    }),
  );
}

/** Tops dev accounts 1-9 up to the grant; an account already holding it is left alone. */
export async function fundDevAccounts(clients: ChainClients, usdc: Address): Promise<void> {
  const accounts = devAddresses().slice(1);
  const balances = await Promise.all(
    accounts.map((a) =>
      clients.publicClient.readContract({ address: usdc, abi: MockUSDCAbi, functionName: 'balanceOf', args: [a] }),
    ),
  );
  const hashes: Hex[] = [];
  for (const [i, account] of accounts.entries()) {
    const missing = DEV_USDC_GRANT - balances[i]!;
    if (missing <= 0n) continue;
    hashes.push(
      await clients.platform.writeContract({
        address: usdc,
        abi: MockUSDCAbi,
        functionName: 'mint',
        args: [account, missing],
      }),
    );
  }
  await Promise.all(hashes.map((hash) => clients.publicClient.waitForTransactionReceipt({ hash })));
}

export async function openMinting(clients: ChainClients, accessCard: Address): Promise<void> {
  const active = await clients.publicClient.readContract({
    address: accessCard,
    abi: AccessCardAbi,
    functionName: 'mintActive',
  });
  if (active) return;
  const hash = await clients.platform.writeContract({
    address: accessCard,
    abi: AccessCardAbi,
    functionName: 'setMintActive',
    args: [true],
  });
  await clients.publicClient.waitForTransactionReceipt({ hash });
}

export async function sendAndWait(clients: ChainClients, hash: Promise<Hex>): Promise<void> {
  const receipt = await clients.publicClient.waitForTransactionReceipt({ hash: await hash });
  if (receipt.status !== 'success') throw new Error(`deployment transaction ${receipt.transactionHash} reverted`);
}

/** Makes the staking contract the emission token's minter and adds pool 0 for the primary token, once each. */
export async function setUpStaking(
  clients: ChainClients,
  primaryToken: Address,
  emissionToken: Address,
  staking: Address,
): Promise<void> {
  const read = clients.publicClient;
  const minter = await read.readContract({ address: emissionToken, abi: EmissionTokenAbi, functionName: 'minter' });
  if (minter === '0x0000000000000000000000000000000000000000') {
    await sendAndWait(
      clients,
      clients.platform.writeContract({
        address: emissionToken,
        abi: EmissionTokenAbi,
        functionName: 'setMinter',
        args: [staking],
      }),
    );
  }
  const pools = await read.readContract({ address: staking, abi: StakingAbi, functionName: 'poolLength' });
  if (pools === 0n) {
    await sendAndWait(
      clients,
      clients.platform.writeContract({
        address: staking,
        abi: StakingAbi,
        functionName: 'addPool',
        args: [primaryToken, PRIMARY_POOL_ALLOC_POINT],
      }),
    );
  }
}

/** Has the access card report every transfer to the staking contract (so a boost ends with its card), once. */
export async function connectCardToStaking(
  clients: ChainClients,
  accessCard: Address,
  staking: Address,
): Promise<void> {
  const current = await clients.publicClient.readContract({
    address: accessCard,
    abi: AccessCardAbi,
    functionName: 'staking',
  });
  if (current === staking) return;
  await sendAndWait(
    clients,
    clients.platform.writeContract({
      address: accessCard,
      abi: AccessCardAbi,
      functionName: 'setStaking',
      args: [staking],
    }),
  );
}

/**
 * Tops `accounts` (dev accounts 1-9 on a development chain, none elsewhere) up to the grant of primary tokens. The
 * token's admin (`asAdmin`: the deployer, or the timelock during its set-up, src/chain/deploy-owner.ts) takes
 * MINTER_ROLE for it and gives it up in the same run, so after deployment only the epoch distributor can mint
 * (within its per-epoch cap). `asAdmin` answers false when the admin cannot act at once (a finished deployment):
 * then nothing is topped up.
 */
export async function grantPrimaryTokens(
  clients: ChainClients,
  primaryToken: Address,
  accounts: Address[],
  asAdmin: (calls: (admin: Address) => { to: Address; data: Hex }[]) => Promise<boolean>,
): Promise<void> {
  const read = clients.publicClient;
  const token = { address: primaryToken, abi: PrimaryTokenAbi } as const;
  const platform = clients.platform.account.address;
  const role = await read.readContract({ ...token, functionName: 'MINTER_ROLE' });
  const balances = await Promise.all(
    accounts.map((a) => read.readContract({ ...token, functionName: 'balanceOf', args: [a] })),
  );
  const missing = accounts
    .map((account, i) => ({ account, amount: DEV_PRIMARY_GRANT - balances[i]! }))
    .filter((m) => m.amount > 0n);
  if (missing.length > 0) {
    const data = (functionName: 'grantRole' | 'renounceRole' | 'mint', args: readonly unknown[]) =>
      encodeFunctionData({ abi: PrimaryTokenAbi, functionName, args } as never);
    await asAdmin((admin) => [
      { to: primaryToken, data: data('grantRole', [role, admin]) },
      ...missing.map(({ account, amount }) => ({ to: primaryToken, data: data('mint', [account, amount]) })),
      { to: primaryToken, data: data('renounceRole', [role, admin]) },
    ]);
  }
  // Also for a chain deployed before this rule: the platform keeps no minting right.
  if (await read.readContract({ ...token, functionName: 'hasRole', args: [role, platform] })) {
    await sendAndWait(
      clients,
      clients.platform.writeContract({ ...token, functionName: 'renounceRole', args: [role, platform] }),
    );
  }
}
