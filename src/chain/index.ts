// Opens the chain the configuration names: a remote RPC with a contracts file, or, when CHAIN_RPC_URL is unset,
// a local anvil node with state under DATA_DIR and the platform's contracts deployed on first start.
import path from 'node:path';
import { MockUSDCAbi, PrimaryTokenAbi, StakingAbi } from '@ai-economy/shared/abis';
import { BaseError, ContractFunctionRevertedError, ContractFunctionZeroDataError } from 'viem';
import type { Config } from '../config.ts';
import { ANVIL_CHAIN_ID, type AnvilNode, startAnvil } from './anvil.ts';
import { type Chain, createChainClients, forgetNonces } from './client.ts';
import { type ContractKey, type ContractsFile, readContractsFile, writeContractsFile } from './contracts/addresses.ts';
import { deployLocalContracts } from './deploy.ts';
import { explorerUrlFor } from './explorer.ts';

export interface OpenedChain {
  chain: Chain;
  stop(): Promise<void>;
}

export async function openChain(config: Config, log: (msg: string) => void): Promise<OpenedChain> {
  if (config.chainRpcUrl) {
    const file = readContractsFile(config.contractsFile!);
    if (!file) throw new Error(`CONTRACTS_FILE ${config.contractsFile} does not exist`);
    if (file.complete === false) {
      throw new Error(
        `CONTRACTS_FILE ${config.contractsFile} holds a deployment that did not finish: run npm run cli -- deploy again`,
      );
    }
    if (config.chainId !== undefined && config.chainId !== file.chainId) {
      throw new Error(`CHAIN_ID ${config.chainId} does not match the contracts file's chainId ${file.chainId}`);
    }
    const clients = createChainClients({
      chainId: file.chainId,
      rpcUrl: config.chainRpcUrl,
      local: false,
      timeoutMs: config.rpcTimeoutMs,
      platformKey: config.platformPrivateKey,
      oracleKey: config.oraclePrivateKey,
    });
    return {
      chain: {
        ...clients,
        contracts: file.contracts,
        deployBlocks: deployBlocksOf(file),
        explorerUrl: explorerUrlFor(file.chainId, config.explorerUrl),
      },
      stop: async () => {},
    };
  }
  return openLocalChain(config, log);
}

async function openLocalChain(config: Config, log: (msg: string) => void): Promise<OpenedChain> {
  const stateFile = path.join(config.dataDir, 'chain-state.json');
  const contractsFile = path.join(config.dataDir, 'contracts.json');
  const node: AnvilNode = await startAnvil({ stateFile, chainId: config.chainId ?? ANVIL_CHAIN_ID });
  try {
    const clients = createChainClients({
      chainId: config.chainId ?? ANVIL_CHAIN_ID,
      rpcUrl: node.rpcUrl,
      local: true,
      timeoutMs: config.rpcTimeoutMs,
    });
    forgetNonces(clients.chainId, [clients.platform.account.address, clients.oracle.account.address]);
    const file = await deployLocalContracts(clients, readContractsFile(contractsFile), {
      baseUrl: config.baseUrl,
      save: (f) => writeContractsFile(contractsFile, f),
      log,
      epochDurationS: config.epochDurationS,
      epochRewardPool: config.epochRewardPool,
    });
    writeContractsFile(contractsFile, file);
    await refuseOutdatedContracts(clients, file.contracts, config.dataDir);
    log(`local chain ${node.rpcUrl} (chain id ${clients.chainId}), state in ${stateFile}`);
    return {
      chain: {
        ...clients,
        contracts: file.contracts,
        deployBlocks: deployBlocksOf(file),
        // anvil has none of its own: links are null unless EXPLORER_URL names one pointed at this node.
        explorerUrl: explorerUrlFor(clients.chainId, config.explorerUrl),
      },
      stop: node.stop,
    };
  } catch (err) {
    await node.stop();
    throw err;
  }
}

/**
 * A read each contract answers since its last change of interface, and what the change was: a local chain saved by
 * an older version answers none of them, and the web app would call entry points its contracts lack.
 */
const CURRENT_INTERFACE = [
  { key: 'usdc', abi: MockUSDCAbi, functionName: 'eip712Domain', args: [], lacks: 'permit' },
  { key: 'primaryToken', abi: PrimaryTokenAbi, functionName: 'eip712Domain', args: [], lacks: 'permit' },
  { key: 'staking', abi: StakingAbi, functionName: 'boostedPools', args: [0n], lacks: 'depositWithPermit' },
  // A write, called with nothing to stake: the current contract refuses it by name, an older one has no such function.
  {
    key: 'staking',
    abi: StakingAbi,
    functionName: 'depositAndBoost',
    args: [0n, 0n],
    lacks: 'depositAndBoost',
    refusedAs: 'StakingZeroAmount',
  },
] as const;

/** Stops the start of a local chain whose contracts an older version deployed, saying how to start afresh. */
export async function refuseOutdatedContracts(
  clients: Pick<Chain, 'publicClient'>,
  contracts: ContractsFile['contracts'],
  dataDir: string,
): Promise<void> {
  for (const probe of CURRENT_INTERFACE) {
    const address = contracts[probe.key];
    if (!address) continue;
    try {
      await clients.publicClient.readContract({
        address,
        abi: probe.abi,
        functionName: probe.functionName,
        args: probe.args,
      } as never);
    } catch (err) {
      const expected = 'refusedAs' in probe ? probe.refusedAs : undefined;
      if (
        expected &&
        err instanceof BaseError &&
        err.walk((e) => e instanceof ContractFunctionRevertedError && e.data?.errorName === expected)
      ) {
        continue;
      }
      const refused = (e: unknown) =>
        e instanceof ContractFunctionRevertedError || e instanceof ContractFunctionZeroDataError;
      if (!(err instanceof BaseError && err.walk(refused))) throw err;
      throw new Error(
        `the local chain in ${dataDir} was deployed by an older version of the platform: its ${probe.key} at ${address} has no ${probe.lacks}. Stop the service and move ${dataDir} aside (or delete it) to start afresh with new contracts and a new database`,
      );
    }
  }
}

/** The contracts file's deployment blocks as numbers; an entry that is not a decimal block number is left out. */
export function deployBlocksOf(file: ContractsFile): Partial<Record<ContractKey, bigint>> {
  const blocks: Partial<Record<ContractKey, bigint>> = {};
  for (const [key, value] of Object.entries(file.deployBlocks ?? {})) {
    if (typeof value === 'string' && /^\d+$/.test(value)) blocks[key as ContractKey] = BigInt(value);
  }
  return blocks;
}
