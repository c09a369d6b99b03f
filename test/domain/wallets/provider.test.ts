// The BIP-32 wallet provider: deterministic per seed and index, distinct per index, signatures that recover to
// the wallet, and the seed file of development kept secret and reused.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { recoverTypedDataAddress } from 'viem';
import { afterAll, describe, expect, it } from 'vitest';
import { agentWalletTypedData } from '../../../src/chain/contracts/identity.ts';
import { createHdWalletProvider, loadWalletSeed } from '../../../src/domain/wallets/provider.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'aie-seed-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('createHdWalletProvider', () => {
  const provider = createHdWalletProvider(new Uint8Array(32).fill(1));

  it('gives the same wallet for the same index and a different one for every index', async () => {
    const again = createHdWalletProvider(new Uint8Array(32).fill(1));
    expect(await provider.addressOf(0)).toBe(await again.addressOf(0));
    const addresses = await Promise.all([0, 1, 2, 3, 4].map((i) => provider.addressOf(i)));
    expect(new Set(addresses).size).toBe(5);
    const otherSeed = createHdWalletProvider(new Uint8Array(32).fill(2));
    expect(await otherSeed.addressOf(0)).not.toBe(addresses[0]);
  });

  it('signs typed data that recovers to the wallet of that index', async () => {
    const wallet = await provider.addressOf(3);
    const typed = agentWalletTypedData(wallet, 31337, 0n, wallet, wallet, 1n);
    const signature = await provider.signTypedData(3, typed);
    expect(await recoverTypedDataAddress({ ...typed, signature })).toBe(wallet);
  });

  it('refuses invalid indexes and seeds', async () => {
    await expect(provider.addressOf(-1)).rejects.toThrow(/invalid wallet index/);
    expect(() => createHdWalletProvider(new Uint8Array(8))).toThrow(/16 to 64 bytes/);
  });
});

describe('loadWalletSeed', () => {
  it('uses WALLET_MASTER_SEED when set and refuses a malformed one without echoing it', () => {
    expect(loadWalletSeed(`0x${'ab'.repeat(32)}`, dir, false)).toHaveLength(32);
    expect(() => loadWalletSeed('0xnothex-secret', dir, false)).toThrow(
      /^WALLET_MASTER_SEED must be 0x followed by 32 to 128 hex characters$/,
    );
  });

  it('generates a development seed once, readable by its owner only, and reuses it', () => {
    const first = loadWalletSeed(undefined, dir, true);
    const file = path.join(dir, 'wallet-seed');
    expect(existsSync(file)).toBe(true);
    expect(statSync(file).mode & 0o077).toBe(0);
    expect(loadWalletSeed(undefined, dir, true)).toEqual(first);
    expect(readFileSync(file, 'utf8').trim()).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it('refuses to generate one in production', () => {
    expect(() => loadWalletSeed(undefined, path.join(dir, 'empty'), false)).toThrow(/required in production/);
  });
});
