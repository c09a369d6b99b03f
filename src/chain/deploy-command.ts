// `npm run cli -- deploy`: deploys the platform's contracts to the chain of CHAIN_RPC_URL and writes CONTRACTS_FILE,
// the file a service started with the same environment reads (docs/operations.md, "Going live on Base").
// - The deployer key is DEPLOYER_PRIVATE_KEY (default PLATFORM_PRIVATE_KEY). It deploys the platform's timelock
//   (contracts/PlatformTimelock.sol, two days) with --owner (the operator's multisig; required outside a development
//   chain) as its only proposer, and at the end hands every contract and the primary token's admin role to the
//   timelock and renounces its own roles (src/chain/deploy-owner.ts): no key the service holds keeps a power that
//   changes the rules or mints. The platform and oracle roles go to the addresses of PLATFORM_PRIVATE_KEY and
//   ORACLE_PRIVATE_KEY, the fees to --fee-recipient (default the deployer).
// - It uses the chain's own USDC and Uniswap v4 PoolManager: given with --usdc / --pool-manager, or known for the
//   chain (Base mainnet). Only a development chain (chain id 31337) gets a mock USDC, its own PoolManager and funded
//   dev accounts; any other chain without them is refused.
// - Interrupted, it resumes from the file, never deploying a contract twice (src/chain/deploy.ts).
// - Beside the file it writes the compiler's standard-JSON input; the file itself records each contract's
//   fully qualified name and constructor arguments for source verification.
import { copyFileSync } from 'node:fs';
import { type Address, createPublicClient, formatEther, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ADDRESS_RULE, parseAddress } from '../address.ts';
import { read } from '../config/settings.ts';
import { type Config, ConfigError } from '../config.ts';
import { ANVIL_CHAIN_ID } from './anvil.ts';
import { STANDARD_INPUT_FILE } from './artifacts.ts';
import { createChainClients } from './client.ts';
import { CONTRACT_KEYS, readContractsFile, writeContractsFile } from './contracts/addresses.ts';
import { DeployRefused, deployPlatform } from './deploy.ts';
import { localOwner, OWNER_DELAY_S } from './deploy-owner.ts';

/** Chains whose USDC and Uniswap v4 PoolManager the deployment uses without being told (docs/operations.md). */
export const KNOWN_CHAINS: Record<number, { name: string; usdc: Address; poolManager: Address }> = {
  8453: {
    name: 'Base',
    usdc: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    poolManager: '0x498581fF718922c3f8e6A244956aF099B2652b2b',
  },
};

export interface DeployCommandOptions {
  usdc?: string;
  poolManager?: string;
  feeRecipient?: string;
  owner?: string;
}

function addressOption(name: string, value: string | undefined): Address | undefined {
  if (value === undefined) return undefined;
  const parsed = parseAddress(value);
  if (!parsed.ok) throw new DeployRefused(`deploy: ${name} ${value}: ${parsed.reason} (${ADDRESS_RULE})`);
  return parsed.address;
}

/** Where the standard-JSON input goes: beside the contracts file, named after it. */
export function standardInputPathFor(contractsFile: string): string {
  return `${contractsFile.replace(/\.json$/i, '')}.standard-input.json`;
}

export async function runDeploy(
  config: Config,
  env: Record<string, string | undefined>,
  options: DeployCommandOptions,
  out: (line: string) => void,
): Promise<void> {
  if (!config.chainRpcUrl || !config.contractsFile) {
    throw new DeployRefused('deploy: set CHAIN_RPC_URL (the chain) and CONTRACTS_FILE (where the addresses go)');
  }
  let rawKey: `0x${string}` | undefined;
  try {
    rawKey = read(env, 'DEPLOYER_PRIVATE_KEY');
  } catch (err) {
    if (err instanceof ConfigError) throw new DeployRefused(`deploy: ${err.message}`);
    throw err;
  }
  const deployerKey = (rawKey ?? config.platformPrivateKey) as `0x${string}`;
  const usdcGiven = addressOption('--usdc', options.usdc);
  const poolManagerGiven = addressOption('--pool-manager', options.poolManager);
  const feeRecipientGiven = addressOption('--fee-recipient', options.feeRecipient);
  const ownerGiven = addressOption('--owner', options.owner);

  const probe = createPublicClient({ transport: http(config.chainRpcUrl, { timeout: config.rpcTimeoutMs }) });
  const chainId = await probe.getChainId();
  if (config.chainId !== undefined && config.chainId !== chainId) {
    throw new DeployRefused(`deploy: CHAIN_ID is ${config.chainId} but the RPC answers chain id ${chainId}`);
  }
  const development = chainId === ANVIL_CHAIN_ID;
  const known = KNOWN_CHAINS[chainId];
  const usdc = usdcGiven ?? known?.usdc;
  const poolManager = poolManagerGiven ?? known?.poolManager;
  if (!development && (!usdc || !poolManager)) {
    throw new DeployRefused(
      `deploy: chain ${chainId} is not a development chain and its USDC and Uniswap v4 PoolManager are not known: pass --usdc ADDRESS and --pool-manager ADDRESS (mocks are deployed only on chain ${ANVIL_CHAIN_ID})`,
    );
  }

  const owner = ownerGiven ?? (development ? localOwner() : undefined);
  if (!owner) {
    throw new DeployRefused(
      `deploy: pass --owner ADDRESS, the operator's multisig: it proposes every change of the rules through the platform's timelock (docs/operations.md "Going live on Base")`,
    );
  }

  const existing = readContractsFile(config.contractsFile);
  if (existing && existing.chainId !== chainId) {
    throw new DeployRefused(
      `deploy: ${config.contractsFile} holds chain ${existing.chainId}'s contracts, not chain ${chainId}'s: name another CONTRACTS_FILE`,
    );
  }
  if (existing?.complete !== false && existing && CONTRACT_KEYS.every((k) => existing.contracts[k])) {
    out(`${config.contractsFile} already holds a finished deployment on chain ${chainId}: checking it.`);
  } else if (existing) {
    out(`Resuming the deployment recorded in ${config.contractsFile}.`);
  }

  const clients = createChainClients({
    chainId,
    rpcUrl: config.chainRpcUrl,
    local: false,
    timeoutMs: config.rpcTimeoutMs,
    platformKey: deployerKey,
    oracleKey: deployerKey,
  });
  const deployer = clients.platform.account.address;
  const balance = await clients.publicClient.getBalance({ address: deployer });
  if (balance === 0n) throw new DeployRefused(`deploy: the deployer ${deployer} holds no ETH on chain ${chainId}`);
  const roles = {
    owner,
    platform: config.platformPrivateKey ? privateKeyToAccount(config.platformPrivateKey).address : deployer,
    oracle: config.oraclePrivateKey ? privateKeyToAccount(config.oraclePrivateKey).address : deployer,
    // Run again without --fee-recipient, a deployment keeps the one it started with.
    feeRecipient: feeRecipientGiven ?? existing?.roles?.feeRecipient ?? deployer,
  };
  out(
    `Deploying to chain ${chainId}${known ? ` (${known.name})` : development ? ' (development)' : ''} as ${deployer}.`,
  );

  const file = await deployPlatform(clients, existing, {
    baseUrl: config.baseUrl,
    epochDurationS: config.epochDurationS,
    epochRewardPool: config.epochRewardPool,
    roles,
    usdc,
    poolManager,
    fundDevAccounts: development && !usdcGiven,
    openMinting: development,
    save: (f) => writeContractsFile(config.contractsFile!, f),
    log: (line) => out(`  ${line}`),
  });
  const standardInput = standardInputPathFor(config.contractsFile);
  copyFileSync(STANDARD_INPUT_FILE, standardInput);

  const spent = balance - (await clients.publicClient.getBalance({ address: deployer }));
  out('');
  out(`Deployed on chain ${chainId}; ${formatEther(spent)} ETH spent by this run.`);
  for (const key of CONTRACT_KEYS) {
    const block = file.deployBlocks?.[key];
    out(`  ${key.padEnd(22)} ${file.contracts[key]}${block ? `  (block ${block})` : "  (the chain's own)"}`);
  }
  out(
    `Owner of every contract: the timelock ${file.contracts.timelock} (${Number(OWNER_DELAY_S) / 86_400} days), proposer ${owner}`,
  );
  out(`Platform: ${roles.platform}   Oracle: ${roles.oracle}   Fee recipient: ${roles.feeRecipient}`);
  out(`Contracts file: ${config.contractsFile}`);
  out(`Standard-JSON input for source verification: ${standardInput}`);
  if (!development) {
    out(
      'Card minting is closed: the owner opens it through the timelock (AccessCard.setMintActive(true), two days after it is scheduled).',
    );
  }
  out(`Start the service with CHAIN_RPC_URL and CONTRACTS_FILE=${config.contractsFile}.`);
}
