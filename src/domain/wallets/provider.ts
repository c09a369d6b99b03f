// Wallets of agents come from a wallet provider. The default derives keys with BIP-32 from WALLET_MASTER_SEED
// (one index per wallet; the database keeps only the index and the address, never a key). A remote signer
// (WALLET_PROVIDER=remote, ./remote.ts) implements the same interface with keys the platform never holds.

import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type Account, type Address, type Hex, hexToBytes, isHex, type TypedDataDefinition } from 'viem';
import { HDKey, hdKeyToAccount } from 'viem/accounts';
import { createFileOnce } from '../../files.ts';

export interface WalletProvider {
  readonly kind: string;
  /** The address of wallet `index`; the same index always gives the same wallet. */
  addressOf(index: number): Promise<Address>;
  /** EIP-712 signature by wallet `index` (used to prove the agent wallet to the ERC-8004 registry). */
  signTypedData(index: number, typedData: TypedDataDefinition): Promise<Hex>;
  /**
   * The signer of wallet `index` for transactions, as a viem account: the key never leaves the provider. An MPC
   * provider returns viem's `toAccount({ address, signTransaction, signMessage, signTypedData })` whose methods call
   * its signing service.
   */
  accountOf(index: number): Promise<Account>;
}

/** Agent wallets live on their own BIP-44 account branch, apart from any wallet a person derives from the seed. */
export const AGENT_WALLET_ACCOUNT = 8004;

export function createHdWalletProvider(seed: Uint8Array): WalletProvider {
  if (seed.length < 16 || seed.length > 64) throw new Error('WALLET_MASTER_SEED must be 16 to 64 bytes');
  const root = HDKey.fromMasterSeed(seed);
  const accounts = new Map<number, ReturnType<typeof hdKeyToAccount>>();
  const account = (index: number) => {
    if (!Number.isInteger(index) || index < 0 || index >= 2 ** 31) throw new Error(`invalid wallet index ${index}`);
    let a = accounts.get(index);
    if (!a) {
      a = hdKeyToAccount(root, { accountIndex: AGENT_WALLET_ACCOUNT, addressIndex: index });
      accounts.set(index, a);
    }
    return a;
  };
  return {
    kind: 'hd',
    addressOf: async (index) => account(index).address,
    signTypedData: (index, typedData) => account(index).signTypedData(typedData as never),
    accountOf: async (index) => account(index),
  };
}

/**
 * The master seed: WALLET_MASTER_SEED (0x + 32-128 hex characters) when set; otherwise, for development, one
 * generated once into $DATA_DIR/wallet-seed (mode 0600) and reused on every start.
 */
export function loadWalletSeed(configured: string | undefined, dataDir: string, allowGenerate: boolean): Uint8Array {
  if (configured !== undefined) {
    if (!isHex(configured) || configured.length < 34 || configured.length > 130 || configured.length % 2 !== 0) {
      throw new Error('WALLET_MASTER_SEED must be 0x followed by 32 to 128 hex characters');
    }
    return hexToBytes(configured);
  }
  const file = path.join(dataDir, 'wallet-seed');
  if (existsSync(file)) return loadWalletSeed(readFileSync(file, 'utf8').trim(), dataDir, false);
  if (!allowGenerate) throw new Error('WALLET_MASTER_SEED is required in production (NODE_ENV=production)');
  // Created whole or not at all, and by one process only: a second seed would derive other agent wallets.
  const seed = createFileOnce(file, `0x${randomBytes(32).toString('hex')}\n`, 0o600).trim();
  return loadWalletSeed(seed, dataDir, false);
}
