// The tests run the contracts on the EVM rules they are compiled for, and those are Base's: one constant
// (src/chain/hardfork.ts) sets solc's evmVersion and anvil's --hardfork. Audit round four found the contracts
// compiled for cancun while anvil ran its newest fork (Osaka and beyond); Base runs Prague.
import { readFileSync } from 'node:fs';
import { type Hex, toHex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnvilNode, startAnvil } from '../../src/chain/anvil.ts';
import { STANDARD_INPUT_FILE } from '../../src/chain/artifacts.ts';
import { createChainClients } from '../../src/chain/client.ts';
import { EVM_VERSION } from '../../src/chain/hardfork.ts';

let node: AnvilNode;
let rpc: (method: string, params: unknown[]) => Promise<unknown>;

beforeAll(async () => {
  node = await startAnvil();
  const { publicClient } = createChainClients({ chainId: 31337, rpcUrl: node.rpcUrl, local: true, timeoutMs: 5000 });
  rpc = (method, params) => publicClient.request({ method, params } as never);
});
afterAll(async () => {
  await node?.stop();
});

/** What an eth_call of `call` gives: its output, or "reverted" when the EVM refuses it. */
const outcome = (call: { to?: Hex; data: Hex }) =>
  rpc('eth_call', [call, 'latest']).then(
    (out) => out as Hex,
    () => 'reverted' as const,
  );

describe('the EVM version', () => {
  it('is Prague, the one Base runs', () => {
    expect(EVM_VERSION).toBe('prague');
  });

  it('is the one the contracts were compiled for', () => {
    const built = JSON.parse(readFileSync(STANDARD_INPUT_FILE, 'utf8')) as {
      input: { settings: { evmVersion: string } };
    };
    expect(built.input.settings.evmVersion).toBe(EVM_VERSION);
  });

  it('is the one anvil runs, by its own account and by its rules', async () => {
    const info = (await rpc('anvil_nodeInfo', [])) as { hardFork: string };
    expect(info.hardFork.toLowerCase()).toBe(EVM_VERSION);
    // Prague's BLS12-381 precompile (EIP-2537) answers: the sum of two points at infinity is the point at infinity
    // (128 zero bytes). Under cancun the address holds no code and the call returns nothing.
    expect(await outcome({ to: '0x000000000000000000000000000000000000000b', data: toHex(new Uint8Array(256)) })).toBe(
      toHex(new Uint8Array(128)),
    );
    // Osaka's CLZ opcode (EIP-7939, 0x1e) is not there yet: code that uses it is refused, as on Base.
    expect(await outcome({ data: '0x60011e' })).toBe('reverted');
    expect(await outcome({ data: '0x600115' })).toBe('0x'); // the same code with ISZERO runs
  });
});
