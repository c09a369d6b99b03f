// Deploys the platform's contracts, to the local chain on start-up (deployLocalContracts) or to any EVM chain
// (`npm run cli -- deploy`, deployPlatform), and remembers them in the contracts file. Each step is skipped when its
// result already exists on-chain, so an interrupted deployment finishes when run again without redoing work. A
// contract creation is recorded in the file as pending (its nonce and signed transaction) before it is sent: run
// again, it adopts the contract at that nonce's address or sends the very same transaction again, so a crash
// between the chain and the file never deploys a contract twice.

import { PrimaryTokenAbi, TokenLauncherAbi } from '@ai-economy/shared/abis';
import {
  type Abi,
  type Address,
  encodeAbiParameters,
  encodeDeployData,
  getAddress,
  getContractAddress,
  type Hex,
  keccak256,
  zeroAddress,
} from 'viem';
import { CARD_MINT_PRICE_USDC } from '../constants.ts';
import { loadArtifact } from './artifacts.ts';
import type { ChainClients } from './client.ts';
import { devAddresses } from './client.ts';
import type { ContractKey, ContractsFile, PendingDeployment } from './contracts/addresses.ts';
import { deployCustodySingletons, deployLauncherApprover } from './custody-singletons.ts';
import { type Call, call, deployerOwns, handOver, localOwner, runAsTokenAdmin, timelockArgs } from './deploy-owner.ts';
import {
  connectCardToStaking,
  connectFeeHook,
  DEFAULT_EMISSION_PER_SECOND,
  deployFeeHook,
  type FeeHookArgs,
  feeHookDeployment,
  fundDevAccounts,
  grantPrimaryTokens,
  hasCode,
  openMinting,
  setUpStaking,
} from './deploy-steps.ts';
import {
  DEFAULT_EPOCH_DURATION_S,
  DEFAULT_EPOCH_REWARD_POOL,
  epochStartTimeFor,
  MAX_REWARD_POOL_FACTOR,
} from './merkle.ts';

/** A deployment that cannot go on as asked (a role that changed, a given contract without code): one line. */
export class DeployRefused extends Error {}

export interface DeployOptions {
  baseUrl: string;
  /** Called after every step with the addresses so far, to persist them. */
  save?: (file: ContractsFile) => void;
  log?: (msg: string) => void;
  /** Length of a reward epoch (EPOCH_DURATION_S); default a week. */
  epochDurationS?: number;
  /** An epoch's reward pool in wei (EPOCH_REWARD_POOL); the distributor caps pools at 10 times it. */
  epochRewardPool?: bigint;
}

/** Who holds each role of the deployed contracts. */
export interface DeployRoles {
  /**
   * The timelock's proposer (the operator's multisig; a dev account on the local chain): the timelock owns every
   * contract and holds the primary token's admin role (src/chain/deploy-owner.ts). Absent: the deployer keeps them,
   * which only the tests of single contract functions ask for (test/helpers/chain.ts).
   */
  owner?: Address;
  /** Signs the platform's writes: card bookkeeping, anchoring, token launches. */
  platform: Address;
  /** Finalizes reward epochs. */
  oracle: Address;
  /** Receives the launcher's curve fees and graduation dust, and may withdraw the pool hook's fees. */
  feeRecipient: Address;
}

export interface PlatformDeployOptions extends DeployOptions {
  roles: DeployRoles;
  /** The chain's own USDC and Uniswap v4 PoolManager; a mock USDC and a PoolManager are deployed where absent. */
  usdc?: Address;
  poolManager?: Address;
  /** A development chain: tops dev accounts 1-9 up with mock USDC and primary tokens. */
  fundDevAccounts: boolean;
  /** Opens card minting at once (on a real chain the owner opens it when ready). */
  openMinting: boolean;
}

/** What the step deploying contract `key` left in the file: the contract, or its creation not yet confirmed. */
async function deployOnce(
  clients: ChainClients,
  file: ContractsFile,
  key: ContractKey,
  name: string,
  args: unknown[],
  save: (file: ContractsFile) => void,
): Promise<{ address: Address; block: bigint }> {
  const artifact = loadArtifact(name);
  const from = clients.platform.account.address;
  const read = clients.publicClient;
  let pending: PendingDeployment | undefined = file.pending?.key === key ? file.pending : undefined;
  if (pending) {
    const receipt = await read.getTransactionReceipt({ hash: pending.hash }).catch(() => undefined);
    if (receipt && receipt.status !== 'success') throw new Error(`deployment of ${name} reverted (${pending.hash})`);
    // Mined before the interruption: adopt it, sending nothing.
    if (receipt) return adopted(clients, name, from, pending.nonce, receipt.blockNumber);
    if ((await read.getTransactionCount({ address: from, blockTag: 'latest' })) > pending.nonce) {
      // The nonce went to another transaction (this one was replaced): nothing was deployed, deploy anew.
      pending = undefined;
    }
  }
  if (!pending) {
    const nonce = await read.getTransactionCount({ address: from, blockTag: 'pending' });
    const data = encodeDeployData({ abi: artifact.abi as Abi, bytecode: artifact.bytecode as Hex, args });
    const request = await clients.platform.prepareTransactionRequest({
      account: clients.platform.account,
      chain: clients.viemChain,
      data,
      nonce,
    } as any);
    const raw = await clients.platform.signTransaction(request as any);
    pending = { key, nonce, hash: keccak256(raw), raw };
    file.pending = pending;
    save(file);
  }
  try {
    await read.sendRawTransaction({ serializedTransaction: pending.raw });
  } catch (err) {
    // Sent before the interruption: the node knows it already, or has mined it (its nonce is used).
    if (!/known|nonce too low|already/i.test((err as Error).message)) throw err;
  }
  const receipt = await read.waitForTransactionReceipt({ hash: pending.hash, timeout: 300_000 });
  if (receipt.status !== 'success') throw new Error(`deployment of ${name} reverted (${pending.hash})`);
  return adopted(clients, name, from, pending.nonce, receipt.blockNumber);
}

/** The contract a creation at `nonce` made, checked to have code. */
async function adopted(clients: ChainClients, name: string, from: Address, nonce: number, block: bigint) {
  const address = getAddress(getContractAddress({ from, nonce: BigInt(nonce) }));
  if (!(await hasCode(clients, address))) throw new Error(`deployment of ${name} left no code at ${address}`);
  return { address, block };
}

/** The ABI-encoded constructor arguments, as a block explorer asks for them to verify the source. */
function constructorArgsOf(name: string, args: readonly unknown[]): Hex {
  const ctor = (loadArtifact(name).abi as Abi).find((item) => item.type === 'constructor');
  if (!ctor || !('inputs' in ctor) || ctor.inputs.length === 0) return '0x';
  return encodeAbiParameters(ctor.inputs, args);
}

/**
 * The local chain, in the shape `cli deploy --owner` leaves a real one: account 0 deploys and is platform, oracle and
 * fee recipient, the timelock owns every contract with dev account LOCAL_OWNER_ACCOUNT as its proposer (standing in
 * for the operator's multisig); mocks; dev accounts funded. `owner: null` keeps account 0 the owner of everything,
 * for the tests of single contract functions (test/helpers/chain.ts).
 */
export async function deployLocalContracts(
  clients: ChainClients,
  existing: ContractsFile | undefined,
  options: DeployOptions & { owner?: Address | null },
): Promise<ContractsFile> {
  const owner = options.owner === undefined ? localOwner() : options.owner;
  return deployPlatform(clients, existing, {
    ...options,
    roles: {
      ...(owner ? { owner } : {}),
      platform: clients.platform.account.address,
      oracle: clients.oracle.account.address,
      feeRecipient: clients.platform.account.address,
    },
    fundDevAccounts: true,
    openMinting: true,
  });
}

/**
 * Deploys (or finishes deploying) every contract of the platform with `clients.platform` as deployer and owner,
 * and wires them together. `existing` is what an earlier, perhaps interrupted, run saved.
 */
export async function deployPlatform(
  clients: ChainClients,
  existing: ContractsFile | undefined,
  options: PlatformDeployOptions,
): Promise<ContractsFile> {
  const file: ContractsFile =
    existing && existing.chainId === clients.chainId
      ? {
          ...existing,
          contracts: { ...existing.contracts },
          deployBlocks: { ...existing.deployBlocks },
          verification: { ...existing.verification },
          complete: false,
        }
      : { chainId: clients.chainId, contracts: {}, deployBlocks: {}, verification: {}, complete: false };
  const deployer = clients.platform.account.address;
  // A resumed deployment keeps the roles it started with: contracts already deployed hold them.
  if (file.roles?.owner && options.roles.owner && getAddress(file.roles.owner) !== getAddress(options.roles.owner)) {
    throw new DeployRefused(
      `this deployment was started with owner ${file.roles.owner}, not ${options.roles.owner}: use the same one, or another contracts file for a new deployment`,
    );
  }
  if (file.roles) {
    for (const role of ['platform', 'oracle', 'feeRecipient'] as const) {
      if (getAddress(file.roles[role]) !== getAddress(options.roles[role])) {
        throw new DeployRefused(
          `this deployment was started with ${role} ${file.roles[role]}, not ${options.roles[role]}: use the same one, or another contracts file for a new deployment`,
        );
      }
    }
  }
  file.roles = { ...options.roles };
  const { platform, oracle, feeRecipient, owner: timelockProposer } = options.roles;
  if (timelockProposer && [deployer, platform, oracle].some((a) => getAddress(a) === getAddress(timelockProposer))) {
    throw new DeployRefused(
      `the owner ${timelockProposer} must not be a key the service holds (the deployer, platform or oracle): name the operator's multisig`,
    );
  }
  const log = options.log ?? (() => {});
  const save = options.save ?? (() => {});

  const record = (key: ContractKey, address: Address, block: bigint) => {
    file.contracts[key] = address;
    file.deployBlocks = { ...file.deployBlocks, [key]: block.toString() };
    save(file);
  };
  /** What a block explorer needs to verify the contract deployed as `key`. */
  const noteVerification = (key: ContractKey, name: string, args: readonly unknown[]) => {
    file.verification = {
      ...file.verification,
      [key]: { contract: `${loadArtifact(name).sourceName}:${name}`, constructorArgs: constructorArgsOf(name, args) },
    };
  };
  const step = async (key: ContractKey, name: string, args: () => unknown[]) => {
    if (await hasCode(clients, file.contracts[key])) return;
    const values = args();
    const { address, block } = await deployOnce(clients, file, key, name, values, save);
    file.pending = undefined;
    noteVerification(key, name, values);
    record(key, address, block);
    log(`deployed ${name} at ${address}`);
  };
  /** A contract the chain already has (its USDC, its PoolManager): checked, recorded, never deployed. */
  const adopt = async (key: ContractKey, address: Address) => {
    if (!(await hasCode(clients, address)))
      throw new DeployRefused(`the ${key} at ${address} has no code on chain ${clients.chainId}`);
    if (file.contracts[key] === getAddress(address)) return;
    file.contracts[key] = getAddress(address);
    save(file);
    log(`using the chain's ${key} at ${address}`);
  };

  // The owner of everything else: deployed first, so the primary token is born with it as admin.
  if (timelockProposer) await step('timelock', 'PlatformTimelock', () => timelockArgs(timelockProposer, deployer));
  const timelock = file.contracts.timelock;
  const owner = deployer;
  if (options.usdc) await adopt('usdc', options.usdc);
  else await step('usdc', 'MockUSDC', () => [owner]);
  await step('accessCard', 'AccessCard', () => [
    file.contracts.usdc,
    owner,
    platform,
    CARD_MINT_PRICE_USDC,
    `${options.baseUrl}/api/nft/metadata/`,
  ]);
  await step('identityRegistry', 'IdentityRegistry', () => []);
  // Decision anchoring (the platform anchors) and the legacy ERC-8004 validation registry.
  await step('decisionAnchor', 'DecisionAnchor', () => [owner, platform]);
  // Its validator allow-list: the platform's own keys, the validators the verify route trusts.
  await step('validationRegistry', 'ValidationRegistry', () => [
    file.contracts.identityRegistry,
    owner,
    [...new Set([platform, oracle].map((a) => getAddress(a)))],
  ]);
  await step('primaryToken', 'PrimaryToken', () => [timelock ?? owner]);
  await step('emissionToken', 'EmissionToken', () => []);
  await step('staking', 'Staking', () => [
    file.contracts.emissionToken,
    file.contracts.accessCard,
    owner,
    DEFAULT_EMISSION_PER_SECOND,
  ]);

  // Company tokens: the real Uniswap v4 PoolManager (the chain's own where it has one), the launcher, and the fee
  // hook at a mined CREATE2 address.
  if (options.poolManager) await adopt('poolManager', options.poolManager);
  else await step('poolManager', 'PoolManager', () => [owner]);
  await step('tokenLauncher', 'TokenLauncher', () => [
    file.contracts.usdc,
    file.contracts.poolManager,
    owner,
    platform,
    feeRecipient,
  ]);
  const hookArgs: FeeHookArgs = {
    poolManager: file.contracts.poolManager!,
    launcher: file.contracts.tokenLauncher!,
    usdc: file.contracts.usdc!,
    feeRecipient,
    owner,
  };
  const connected = await clients.publicClient.readContract({
    address: file.contracts.tokenLauncher!,
    abi: TokenLauncherAbi,
    functionName: 'feeHook',
  });
  if (connected !== zeroAddress) {
    // The launcher took its hook once and for good: that is the hook, and nothing is mined again.
    if (file.contracts.feeHook !== connected) record('feeHook', connected, BigInt(file.deployBlocks?.feeHook ?? 0));
  } else {
    const hook = feeHookDeployment(hookArgs);
    if (file.contracts.feeHook !== hook.address || !(await hasCode(clients, hook.address))) {
      const { block } = await deployFeeHook(clients, hook);
      noteVerification('feeHook', 'PlatformFeeHook', hook.constructorArgs);
      record('feeHook', hook.address, block);
      log(`deployed PlatformFeeHook at ${hook.address} (mined salt ${hook.salt})`);
    }
  }
  await connectFeeHook(clients, file.contracts.tokenLauncher!, file.contracts.feeHook!);

  // Custody: the Safe and Roles singletons each company's Safe and module are proxies of, where the chain lacks them
  // (on Base the Safe's are at their canonical addresses); each one's code is checked.
  const custody = await deployCustodySingletons(clients, { dev: options.fundDevAccounts, log });
  const custodyBlock = await clients.publicClient.getBlockNumber({ cacheTime: 0 });
  for (const [key, address] of Object.entries(custody) as [ContractKey, Address][]) {
    if (file.contracts[key] !== address) record(key, address, custodyBlock);
  }
  const approver = await deployLauncherApprover(clients, file.contracts.tokenLauncher!, log);
  if (file.contracts.launcherApprover !== approver) record('launcherApprover', approver, custodyBlock);

  if (options.fundDevAccounts) await fundDevAccounts(clients, file.contracts.usdc!);
  if (options.openMinting && (await deployerOwns(clients, file.contracts.accessCard!))) {
    await openMinting(clients, file.contracts.accessCard!);
  }
  await setUpStaking(clients, file.contracts.primaryToken!, file.contracts.emissionToken!, file.contracts.staking!);
  await connectCardToStaking(clients, file.contracts.accessCard!, file.contracts.staking!);
  const asTokenAdmin = (calls: (admin: Address) => Call[]) =>
    runAsTokenAdmin(clients, file.contracts.primaryToken!, timelock, calls);
  await grantPrimaryTokens(
    clients,
    file.contracts.primaryToken!,
    options.fundDevAccounts ? devAddresses().slice(1) : [],
    asTokenAdmin,
  );

  // Epoch rewards: epoch 0 starts at 00:00 UTC of the latest block's day (on a fresh chain, the deployment day);
  // the oracle finalizes epochs with pools of at most 10x the configured pool; the distributor mints the rewards.
  const latest = await clients.publicClient.getBlock({ blockTag: 'latest' });
  await step('distributor', 'EpochDistributor', () => [
    file.contracts.primaryToken,
    owner,
    oracle,
    epochStartTimeFor(latest.timestamp),
    BigInt(options.epochDurationS ?? DEFAULT_EPOCH_DURATION_S),
    (options.epochRewardPool ?? DEFAULT_EPOCH_REWARD_POOL) * MAX_REWARD_POOL_FACTOR,
  ]);
  const token = { address: file.contracts.primaryToken!, abi: PrimaryTokenAbi } as const;
  const minter = await clients.publicClient.readContract({ ...token, functionName: 'MINTER_ROLE' });
  const distributor = file.contracts.distributor!;
  if (!(await clients.publicClient.readContract({ ...token, functionName: 'hasRole', args: [minter, distributor] }))) {
    const granted = await asTokenAdmin(() => [
      call(token.address, PrimaryTokenAbi, 'grantRole', [minter, distributor]),
    ]);
    if (!granted) throw new DeployRefused('the distributor is no minter and the token admin cannot grant it at once');
  }
  // Last: the timelock takes every contract, its delay rises to two days, and the deployer keeps no owner's power.
  if (timelock) await handOver(clients, file, log);
  file.complete = true;
  save(file);
  return file;
}
