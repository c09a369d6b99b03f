// A fresh anvil node with the platform's contracts deployed, started once per test file.

import { createTestClient, createWalletClient, http, publicActions, type Chain as ViemChain } from 'viem';
import { type AnvilNode, startAnvil } from '../../src/chain/anvil.ts';
import { type Chain, createChainClients, devAccount, type Wallet } from '../../src/chain/client.ts';
import { deployLocalContracts } from '../../src/chain/deploy.ts';
import { deployBlocksOf } from '../../src/chain/index.ts';

export interface TestChain {
  node: AnvilNode;
  chain: Chain;
  /** A wallet client for dev account `index` (0 is owner/platform; 1-9 hold USDC). */
  wallet(index: number): Wallet;
  stop(): Promise<void>;
}

export async function startTestChain(options: { baseUrl?: string; timeoutMs?: number } = {}): Promise<TestChain> {
  const node = await startAnvil();
  const clients = createChainClients({
    chainId: 31337,
    rpcUrl: node.rpcUrl,
    local: true,
    timeoutMs: options.timeoutMs ?? 5000,
  });
  const file = await deployLocalContracts(clients, undefined, { baseUrl: options.baseUrl ?? 'http://localhost:3000' });
  const chain: Chain = { ...clients, contracts: file.contracts, deployBlocks: deployBlocksOf(file), explorerUrl: null };
  const wallets = new Map<number, Wallet>();
  return {
    node,
    chain,
    wallet(index) {
      let w = wallets.get(index);
      if (!w) {
        w = createWalletClient({ account: devAccount(index), chain: clients.viemChain, transport: http(node.rpcUrl) });
        wallets.set(index, w);
      }
      return w;
    },
    stop: () => node.stop(),
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
