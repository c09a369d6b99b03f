// A local chain saved by an older version of the platform, whose contracts lack what the web app calls, is refused
// at start with how to start afresh (its own file: a chain of its own, apart from open-chain's nonce bookkeeping).
import type { Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { loadArtifact } from '../../src/chain/artifacts.ts';
import { refuseOutdatedContracts } from '../../src/chain/index.ts';
import { anvilTestClient, startTestChain } from '../helpers/chain.ts';

describe('a local chain deployed by an older version', () => {
  it('is refused at start with how to start afresh; the current contracts pass', async () => {
    const chain = await startTestChain();
    try {
      await refuseOutdatedContracts(chain.chain, chain.chain.contracts, '/data');
      // The staking contract of an older version: code without boostedPools or depositWithPermit.
      await anvilTestClient(chain.node.rpcUrl).setCode({
        address: chain.chain.contracts.staking!,
        bytecode: loadArtifact('EmissionToken').deployedBytecode as Hex,
      });
      await expect(refuseOutdatedContracts(chain.chain, chain.chain.contracts, '/data')).rejects.toThrow(
        /deployed by an older version of the platform: its staking at 0x[0-9a-fA-F]{40} has no depositWithPermit\. Stop the service and move \/data aside/,
      );
    } finally {
      await chain.stop();
    }
  }, 120_000);
});
