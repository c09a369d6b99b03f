// The RPC boundary: a node that hangs or refuses becomes CHAIN_UNAVAILABLE; a revert stays a revert.
import { describe, expect, it } from 'vitest';
import { createChainClients } from '../../src/chain/client.ts';
import { onChain } from '../../src/chain/errors.ts';
import { AppError } from '../../src/errors.ts';
import { useBlackHoleRpc } from '../helpers/black-hole.ts';

const blackHole = useBlackHoleRpc();

describe('onChain', () => {
  it('turns a hanging RPC into CHAIN_UNAVAILABLE after the timeout', async () => {
    const clients = createChainClients({ chainId: 31337, rpcUrl: blackHole.url, local: false, timeoutMs: 300 });
    const started = Date.now();
    const err = await onChain(() => clients.publicClient.getBlockNumber()).catch((e) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('CHAIN_UNAVAILABLE');
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('turns a refused connection into CHAIN_UNAVAILABLE', async () => {
    const clients = createChainClients({ chainId: 31337, rpcUrl: 'http://127.0.0.1:1', local: false, timeoutMs: 300 });
    const err = await onChain(() => clients.publicClient.getBlockNumber()).catch((e) => e);
    expect((err as AppError).code).toBe('CHAIN_UNAVAILABLE');
  });

  it('passes other errors through unchanged', async () => {
    const boom = new Error('revert');
    await expect(onChain(() => Promise.reject(boom))).rejects.toBe(boom);
  });
});
