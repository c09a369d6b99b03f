// viem clients for the configured chain: one public client (every call bounded by the RPC timeout) and
// wallet clients for the platform and oracle keys, which never leave this module's accounts.

import { pbkdf2Sync } from 'node:crypto';
import {
  type Account,
  type Address,
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
  type PublicClient,
  type Transport,
  type Chain as ViemChain,
  type WalletClient,
} from 'viem';
import { type HDAccount, HDKey, hdKeyToAccount, nonceManager, privateKeyToAccount } from 'viem/accounts';
import { ANVIL_MNEMONIC } from './anvil.ts';
import type { ContractAddresses, ContractKey } from './contracts/addresses.ts';

export type Wallet = WalletClient<Transport, ViemChain, Account>;

export interface ChainClients {
  chainId: number;
  rpcUrl: string;
  /** True when the service runs its own anvil node. */
  local: boolean;
  viemChain: ViemChain;
  publicClient: PublicClient<Transport, ViemChain>;
  platform: Wallet;
  oracle: Wallet;
  /** A wallet client signing with `account` (an agent wallet) over the same transport. */
  walletOf(account: Account): Wallet;
}

export interface Chain extends ChainClients {
  contracts: ContractAddresses;
  /** Block each contract was deployed in, where log followers start; unknown for a contract file without it. */
  deployBlocks?: Partial<Record<ContractKey, bigint>>;
  /** The block explorer's base URL; null for a chain without one (the local chain). */
  explorerUrl: string | null;
}

export function makeViemChain(chainId: number, rpcUrl: string): ViemChain {
  return defineChain({
    id: chainId,
    name: chainId === 8453 ? 'Base' : chainId === 31337 ? 'Local (anvil)' : `Chain ${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
}

// The mnemonic's BIP-39 seed, derived once a process with node:crypto: viem's mnemonicToAccount derives it on every
// call in JavaScript (2,048 rounds of PBKDF2-SHA512, tens of milliseconds), and the dev accounts are asked for
// often (every local chain's start, the demo, the tests).
let devRoot: HDKey | undefined;
const devAccounts = new Map<number, HDAccount>();

function devAccountOf(index: number, options: { nonceManager?: typeof nonceManager } = {}): HDAccount {
  devRoot ??= HDKey.fromMasterSeed(pbkdf2Sync(ANVIL_MNEMONIC.normalize('NFKD'), 'mnemonic', 2048, 64, 'sha512'));
  return hdKeyToAccount(devRoot, { addressIndex: index, ...options });
}

/** Account `index` of anvil's default mnemonic (0 deploys and is owner, platform and oracle). */
export function devAccount(index: number): HDAccount {
  let account = devAccounts.get(index);
  if (!account) {
    account = devAccountOf(index);
    devAccounts.set(index, account);
  }
  return account;
}

export function devAddresses(count = 10): Address[] {
  return Array.from({ length: count }, (_, i) => devAccount(i).address);
}

export function createChainClients(options: {
  chainId: number;
  rpcUrl: string;
  local: boolean;
  timeoutMs: number;
  platformKey?: `0x${string}` | undefined;
  oracleKey?: `0x${string}` | undefined;
}): ChainClients {
  const viemChain = makeViemChain(options.chainId, options.rpcUrl);
  // Concurrent calls travel in one JSON-RPC batch (one HTTP round trip); this works on any node, where
  // multicall would need a Multicall3 contract the local chain does not have.
  const transport = http(options.rpcUrl, {
    timeout: options.timeoutMs,
    retryCount: 1,
    retryDelay: 100,
    batch: { batchSize: 100, wait: 0 },
  });
  const publicClient = createPublicClient({ chain: viemChain, transport, pollingInterval: options.local ? 200 : 2000 });
  const account = (key: `0x${string}` | undefined) =>
    key ? privateKeyToAccount(key, { nonceManager }) : devAccountWithNonces(0);
  const platformAccount = account(options.platformKey);
  const oracleAccount =
    options.oracleKey && options.oracleKey !== options.platformKey ? account(options.oracleKey) : platformAccount;
  const wallet = (acc: Account) => createWalletClient({ account: acc, chain: viemChain, transport });
  return {
    chainId: options.chainId,
    rpcUrl: options.rpcUrl,
    local: options.local,
    viemChain,
    publicClient,
    platform: wallet(platformAccount),
    oracle: oracleAccount === platformAccount ? wallet(platformAccount) : wallet(oracleAccount),
    walletOf: wallet,
  };
}

/**
 * Forgets the nonces viem's process-wide nonce manager counted for the dev accounts and `others` on `chainId`. It
 * keys them by address and chain id only, so a second local chain started in the same process (a benchmark that
 * starts the service twice) would otherwise get the first chain's next nonces and its transactions would wait
 * for ever. Called when a local chain has just started; the next send asks the node.
 */
export function forgetNonces(chainId: number, others: readonly Address[] = []): void {
  for (const address of [...devAddresses(), ...others]) nonceManager.reset({ address, chainId });
}

function devAccountWithNonces(index: number): Account {
  return devAccountOf(index, { nonceManager });
}
