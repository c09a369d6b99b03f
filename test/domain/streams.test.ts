// The registry of chain streams: every stream is declared once, in a file named after it, and the score snapshot
// waits for the scored ones whose contracts the contracts file has.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { Address } from 'viem';
import { describe, expect, it } from 'vitest';
import { scoredStreams } from '../../src/domain/scores/readiness.ts';
import { CHAIN_STREAMS } from '../../src/domain/streams/registry.ts';

const DOMAIN = path.resolve(import.meta.dirname, '..', '..', 'src', 'domain');
const address = (n: number) => `0x${n.toString(16).padStart(40, '0')}` as Address;

describe('the chain streams', () => {
  it('registers each stream file, src/domain/<area>/<stream name>.stream.ts, once, under a name of its own', () => {
    const files = readdirSync(DOMAIN, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.stream.ts'))
      .map((f) => path.basename(f, '.stream.ts'))
      .sort();
    const names = CHAIN_STREAMS.map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
    expect([...names].sort()).toEqual(files);
  });

  it('follows a stream only when the contracts file has its contracts, from their deployment block', () => {
    const none = { contracts: {}, deployBlocks: {} };
    expect(CHAIN_STREAMS.map((s) => s.address(none))).toEqual(CHAIN_STREAMS.map(() => undefined));
    const all = {
      contracts: { accessCard: address(1), tokenLauncher: address(2), feeHook: address(3), usdc: address(4) },
      deployBlocks: { accessCard: 10n, tokenLauncher: 12n, feeHook: 11n, usdc: 1n },
    };
    expect(Object.fromEntries(CHAIN_STREAMS.map((s) => [s.name, s.startBlock(all)]))).toEqual({
      'access-card-transfers': 10n,
      'company-tokens': 11n,
      'company-token-holders': 12n,
      // No treasury exists before the platform's deployment, however old the chain's USDC is.
      'treasury-transfers': 10n,
    });
  });

  it('has the snapshot wait for the trades and treasury transfers it scores, each when its contracts exist', () => {
    const launcher = { tokenLauncher: address(2), feeHook: address(3) };
    expect(scoredStreams({ contracts: { ...launcher, usdc: address(4) } })).toEqual([
      'company-tokens',
      'treasury-transfers',
    ]);
    expect(scoredStreams({ contracts: launcher })).toEqual(['company-tokens']);
    expect(scoredStreams({ contracts: { tokenLauncher: address(2), usdc: address(4) } })).toEqual([
      'treasury-transfers',
    ]);
  });
});
