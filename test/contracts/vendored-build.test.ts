// Contracts the platform did not write: Safe 1.5.0 comes from its npm artifacts and must be the canonical code;
// Zodiac Roles v2.1 and its module proxy factory are vendored sources whose build must come out byte for byte the
// same on every install (same compiler, same settings, same sources), or the audited code is not what runs.
import { type Hex, keccak256 } from 'viem';
import { describe, expect, it } from 'vitest';
import { compileVendored } from '../../scripts/build-contracts.ts';
import { startAnvil } from '../../src/chain/anvil.ts';
import { loadArtifact } from '../../src/chain/artifacts.ts';
import { createChainClients } from '../../src/chain/client.ts';
import {
  create2Address,
  custodyPlan,
  deployCustodySingletons,
  SAFE_CANONICAL,
  SAFE_CONTRACTS,
  SAFE_SINGLETON_FACTORY,
} from '../../src/chain/custody-singletons.ts';
import { CREATE2_DEPLOYER } from '../../src/chain/hook-address.ts';
import { startTestChain } from '../helpers/chain.ts';

/**
 * keccak256 of each vendored contract's creation code (library slots unlinked) and runtime code, as solc 0.8.21
 * (optimizer runs 100, Shanghai) builds them from contracts/vendor/. A change of compiler, setting or source changes
 * these: then the build is no longer the audited one, and that is a decision to take on purpose, not by an install.
 */
const RECORDED: Record<string, { creation: Hex; runtime: Hex; size: number }> = {
  Roles: {
    creation: '0x522dcba7fdd2c06c352dc320882ff206d00740a59e7eb4f9d4c0f4ed6657a37f',
    runtime: '0x0e13b8099031f67af5ed796c726e311765e3eb77ae932fd4b63d8816478efad7',
    size: 24_401,
  },
  Integrity: {
    creation: '0xc4e3b66cc587b3f0f21f7bef570e4db62ae6aa74b3b660e6c66da72b8ffe9956',
    runtime: '0x746f6628fbc82730f24e19302597ef863e4e6449237c23dd94c9f4fd6adc11ae',
    size: 5_637,
  },
  Packer: {
    creation: '0xcd02629adf40decee30b6ac51c17f453edcf0f38a3c595b046ac97f0d43c1157',
    runtime: '0xea0aa3c7c4e801f713e3bd873b4eb9d5107bd1979dbbebb2b0d15291a3ffeb32',
    size: 2_138,
  },
  ModuleProxyFactory: {
    creation: '0x9717589b707a8fde32bde23b4fdf52671f2e4e976bbbbfa6efb076f7254414ce',
    runtime: '0xc3d8c05759fda793cd8381bf8a2829242b87272f0cf633f7fc0f2be6f33adea3',
    size: 954,
  },
  MultiSendUnwrapper: {
    creation: '0x5c92aa9e89a3467e31f5f441ab79511bc37e9fce78ed36f89b53920ee1a9786a',
    runtime: '0x4d8d8608b70a6e2f40726b9dd74406bbf73e90cac58e23ee953e2b45ad7dc3df',
    size: 2_071,
  },
};

describe('the vendored Zodiac Roles build', () => {
  it('comes out byte-identical to the recorded build, and the artifacts on disk are that build', () => {
    const build = compileVendored();
    expect(build.compilerVersion).toMatch(/^v0\.8\.21\+commit\.d9974bed/);
    expect(Object.keys(build.contracts).sort()).toEqual(Object.keys(RECORDED).sort());
    for (const [name, recorded] of Object.entries(RECORDED)) {
      const fresh = build.contracts[name]!;
      expect({
        name,
        creation: keccak256(fresh.bytecode as Hex),
        runtime: keccak256(fresh.deployedBytecode as Hex),
      }).toEqual({ name, creation: recorded.creation, runtime: recorded.runtime });
      expect((fresh.deployedBytecode.length - 2) / 2, name).toBe(recorded.size);
      const onDisk = loadArtifact(name);
      expect(onDisk.bytecode, name).toBe(fresh.bytecode);
      expect(onDisk.deployedBytecode, name).toBe(fresh.deployedBytecode);
    }
    // Within EIP-170's 24,576 bytes, so a chain that enforces it deploys it.
    expect(RECORDED.Roles!.size).toBeLessThanOrEqual(24_576);
    // The two libraries Roles links, and nothing else.
    const links = build.contracts.Roles!.linkReferences;
    expect(
      Object.entries(links).flatMap(([source, byName]) => Object.keys(byName).map((n) => `${source}:${n}`)),
    ).toEqual(['contracts/Integrity.sol:Integrity', 'contracts/packers/Packer.sol:Packer']);
  }, 120_000);
});

describe('the Safe 1.5.0 artifacts', () => {
  it('carry the canonical code and land at the canonical addresses through Safe’s singleton factory', () => {
    for (const name of SAFE_CONTRACTS) {
      const artifact = loadArtifact(name);
      expect(keccak256(artifact.deployedBytecode as Hex), name).toBe(SAFE_CANONICAL[name].codeHash);
      expect(create2Address(SAFE_SINGLETON_FACTORY, artifact.bytecode as Hex), name).toBe(SAFE_CANONICAL[name].address);
    }
  });
});

describe('the custody singletons on a chain', () => {
  it('the deployment leaves every one at its planned address with the expected code; a second run sends nothing', async () => {
    const chain = await startTestChain();
    try {
      const { contracts } = chain.file;
      const plan = custodyPlan(SAFE_SINGLETON_FACTORY);
      expect(contracts.safeSingleton).toBe(SAFE_CANONICAL.SafeL2.address);
      expect(contracts.safeProxyFactory).toBe(SAFE_CANONICAL.SafeProxyFactory.address);
      expect(contracts.safeFallbackHandler).toBe(SAFE_CANONICAL.CompatibilityFallbackHandler.address);
      expect(contracts.safeMultiSendCallOnly).toBe(SAFE_CANONICAL.MultiSendCallOnly.address);
      expect(contracts.rolesSingleton).toBe(plan.roles.find((r) => r.name === 'Roles')!.address);
      expect(contracts.moduleProxyFactory).toBe(plan.roles.find((r) => r.name === 'ModuleProxyFactory')!.address);
      const read = chain.chain.publicClient;
      for (const { name, address, codeHash } of plan.roles) {
        expect(keccak256((await read.getCode({ address }))!), name).toBe(codeHash);
      }
      const platform = chain.chain.platform.account.address;
      const nonce = await read.getTransactionCount({ address: platform });
      const again = await deployCustodySingletons(chain.chain, { dev: true });
      expect(await read.getTransactionCount({ address: platform })).toBe(nonce);
      expect(again.rolesSingleton).toBe(contracts.rolesSingleton);
    } finally {
      await chain.stop();
    }
  }, 120_000);

  it('a chain without Safe’s singleton factory (not a development one) gets them through the CREATE2 deployer', async () => {
    const node = await startAnvil();
    try {
      const clients = createChainClients({ chainId: 31337, rpcUrl: node.rpcUrl, local: true, timeoutMs: 5000 });
      expect(await clients.publicClient.getCode({ address: SAFE_SINGLETON_FACTORY })).toBeUndefined();
      const deployed = await deployCustodySingletons(clients, { dev: false });
      const plan = custodyPlan(CREATE2_DEPLOYER);
      expect(deployed.safeSingleton).toBe(plan.safe.SafeL2.address);
      expect(deployed.safeSingleton).not.toBe(SAFE_CANONICAL.SafeL2.address);
      expect(keccak256((await clients.publicClient.getCode({ address: deployed.safeSingleton }))!)).toBe(
        SAFE_CANONICAL.SafeL2.codeHash,
      );
      // Code other than the expected at a planned address is refused, not adopted.
      await clients.publicClient.request({
        method: 'anvil_setCode' as never,
        params: [deployed.moduleProxyFactory, '0x6000'] as never,
      });
      await expect(deployCustodySingletons(clients, { dev: false })).rejects.toThrow(
        /the ModuleProxyFactory at 0x[0-9a-fA-F]{40} does not carry the expected code/,
      );
    } finally {
      await node.stop();
    }
  }, 120_000);
});
