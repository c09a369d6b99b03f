// Block-explorer links: absolute URLs, or null for a chain without an explorer (never a relative "/tx/0x...").
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { explorerUrlFor, transactionUrl } from '../../src/chain/explorer.ts';
import { openChain } from '../../src/chain/index.ts';
import { loadConfig } from '../../src/config.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'aie-explorer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('explorer links', () => {
  it('use the configured explorer, else the known one for the chain id, else none', () => {
    expect(explorerUrlFor(8453, undefined)).toBe('https://basescan.org');
    expect(explorerUrlFor(84532, undefined)).toBe('https://sepolia.basescan.org');
    expect(explorerUrlFor(8453, 'https://explorer.example/')).toBe('https://explorer.example');
    expect(explorerUrlFor(999, undefined)).toBeNull();
  });

  it('are absolute URLs, or null without an explorer', () => {
    expect(transactionUrl('https://basescan.org', '0xab')).toBe('https://basescan.org/tx/0xab');
    expect(transactionUrl(null, '0xab')).toBeNull();
  });
});

describe('openChain without CHAIN_RPC_URL', () => {
  it('runs the embedded chain with no block explorer, unless EXPLORER_URL names one', async () => {
    const local = await openChain(loadConfig({ DATA_DIR: dir }), () => {});
    try {
      expect(local.chain.local).toBe(true);
      expect(local.chain.explorerUrl).toBeNull();
    } finally {
      await local.stop();
    }
    // A local explorer (Otterscan, say) pointed at the node.
    const explored = await openChain(loadConfig({ DATA_DIR: dir, EXPLORER_URL: 'http://localhost:5100' }), () => {});
    try {
      expect(explored.chain.explorerUrl).toBe('http://localhost:5100');
    } finally {
      await explored.stop();
    }
  });
});
