// The chain of a test file: anvil with the platform's contracts deployed. A file gets its worker's shared chain
// (test/helpers/broker.ts), put back to the state right after the deployment, and a node of its own only when
// it asks for a second chain at once or runs outside vitest's global setup. Either way a file starts on a clean
// deployment, with the chain's clock at the present.

import { AccessCardAbi } from '@ai-economy/shared/abis';
import { createTestClient, createWalletClient, http, publicActions, type Chain as ViemChain } from 'viem';
import { startAnvil } from '../../src/chain/anvil.ts';
import { type Chain, createChainClients, devAccount, type Wallet } from '../../src/chain/client.ts';
import type { ContractsFile } from '../../src/chain/contracts/addresses.ts';
import { deployLocalContracts } from '../../src/chain/deploy.ts';
import { deployBlocksOf } from '../../src/chain/index.ts';
import { askBroker, SHARED_CHAIN_BASE_URL, type SharedChainLease } from './broker.ts';

export interface TestChain {
  /** The node's JSON-RPC URL and port (for test clients, proxies in front of it, the service's config). */
  node: { rpcUrl: string; port: number };
  chain: Chain;
  /** The deployment, as the contracts file of a service process pointed at this chain holds it. */
  file: ContractsFile;
  /** A wallet client for dev account `index` (0 is owner/platform; 1-9 hold USDC). */
  wallet(index: number): Wallet;
  /**
   * Ends the file's use of the chain: stops a node of its own; the shared one is only handed back (it keeps
   * answering), so a file that takes the node away mid-test starts its chain with `own: true`.
   */
  stop(): Promise<void>;
}

export interface TestChainOptions {
  /** The service's BASE_URL, which the card's metadata URI begins with. */
  baseUrl?: string;
  /** The RPC timeout of the file's clients. */
  timeoutMs?: number;
  /**
   * A node of the file's own, not the worker's shared one: for a file that stops the node while its tests run (an
   * outage), since stopping the shared chain only hands it back.
   */
  own?: boolean;
  /** The reward epochs' length (EPOCH_DURATION_S) the distributor is deployed with: a node of the file's own. */
  epochDurationS?: number;
}

/** Whether this process holds its worker's shared chain (a second chain at once gets a node of its own). */
let leased = false;

/**
 * TEST_CHAIN_PER_FILE=1: no shared chain, every file starts anvil and deploys the contracts itself, as before the
 * broker (test/README.md), so the same commit can be timed both ways.
 */
export const chainPerFile = process.env.TEST_CHAIN_PER_FILE === '1';

/**
 * A new file starts without the worker's chain (test/setup-each-file.ts): files share their worker's process, and a
 * file that ended without handing the chain back (a failed `beforeAll`) must not leave the next one without it.
 */
export function forgetChainLease(): void {
  leased = false;
}

async function leaseSharedChain(): Promise<SharedChainLease | undefined> {
  const pool = process.env.VITEST_POOL_ID;
  if (!pool || leased || chainPerFile) return undefined;
  const lease = await askBroker<SharedChainLease>(`/chain?pool=${pool}`);
  if (lease) leased = true;
  return lease;
}

export async function startTestChain(options: TestChainOptions = {}): Promise<TestChain> {
  const baseUrl = options.baseUrl ?? SHARED_CHAIN_BASE_URL;
  const shared = options.own || options.epochDurationS !== undefined ? undefined : await leaseSharedChain();
  const own = shared ? undefined : await startAnvil();
  const rpcUrl = shared?.rpcUrl ?? own!.rpcUrl;
  const clients = createChainClients({ chainId: 31337, rpcUrl, local: true, timeoutMs: options.timeoutMs ?? 5000 });
  let file: ContractsFile;
  try {
    file =
      shared?.file ??
      (await deployLocalContracts(clients, undefined, {
        baseUrl,
        owner: null,
        ...(options.epochDurationS !== undefined && { epochDurationS: options.epochDurationS }),
      }));
  } catch (err) {
    await own?.stop();
    throw err;
  }
  const chain: Chain = { ...clients, contracts: file.contracts, deployBlocks: deployBlocksOf(file), explorerUrl: null };
  const wallets = new Map<number, Wallet>();
  const wallet = (index: number) => {
    let w = wallets.get(index);
    if (!w) {
      w = createWalletClient({ account: devAccount(index), chain: clients.viemChain, transport: http(rpcUrl) });
      wallets.set(index, w);
    }
    return w;
  };
  if (shared && baseUrl !== SHARED_CHAIN_BASE_URL) {
    // The shared deployment was made for the default BASE_URL: the owner points the card at this file's.
    const hash = await wallet(0).writeContract({
      address: file.contracts.accessCard!,
      abi: AccessCardAbi,
      functionName: 'setBaseURI',
      args: [`${baseUrl}/api/nft/metadata/`],
    });
    await clients.publicClient.waitForTransactionReceipt({ hash });
  }
  return {
    node: { rpcUrl, port: shared?.port ?? own!.port },
    chain,
    file,
    wallet,
    stop: async () => {
      if (own) await own.stop();
      else leased = false;
    },
  };
}

/** anvil's test actions (time, mining, storage) and the public reads on one client, for tests that steer the node. */
export function anvilTestClient(rpcUrl: string, viemChain?: ViemChain, pollingInterval?: number) {
  return createTestClient({
    mode: 'anvil',
    ...(viemChain ? { chain: viemChain } : {}),
    transport: http(rpcUrl),
    ...(pollingInterval ? { pollingInterval } : {}),
  }).extend(publicActions);
}
