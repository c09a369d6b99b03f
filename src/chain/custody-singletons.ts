// The contracts a company's custody is built from, once per chain: Safe 1.5.0 (its npm artifacts) and Zodiac Roles
// v2.1 with its module proxy factory (vendored and built by scripts/build-contracts.ts). Each is deployed through a
// CREATE2 factory with salt 0, so its address follows from its code alone: on a chain that has them (Base has the
// Safe's at the canonical addresses) nothing is deployed, and a resumed deployment finds what it made.
import {
  type Address,
  concat,
  encodeDeployData,
  getAddress,
  getContractAddress,
  type Hex,
  keccak256,
  padHex,
  zeroHash,
} from 'viem';
import { loadArtifact } from './artifacts.ts';
import type { ChainClients } from './client.ts';
import { CREATE2_DEPLOYER } from './hook-address.ts';

/**
 * Safe's singleton factory (safe-singleton-factory): the same deterministic-deployment proxy as CREATE2_DEPLOYER, at
 * the address through which the canonical Safe contracts were deployed on every chain that has them.
 */
export const SAFE_SINGLETON_FACTORY: Address = '0x914d7Fec6aaC8cd542e72Bca78B30650d45643d7';

/** The Safe 1.5.0 contracts the platform uses, by artifact name. */
export const SAFE_CONTRACTS = [
  'SafeL2',
  'SafeProxyFactory',
  'CompatibilityFallbackHandler',
  'MultiSendCallOnly',
] as const;
export type SafeContract = (typeof SAFE_CONTRACTS)[number];

/**
 * The canonical deployments of Safe 1.5.0 and the keccak256 of their runtime code, as `@safe-global/safe-deployments`
 * 1.37.63 lists them (assets/v1.5.0, "canonical"; Base 8453 and Base Sepolia 84532 have them). The npm artifacts
 * deployed through SAFE_SINGLETON_FACTORY with salt 0 land at exactly these addresses with exactly this code
 * (test/contracts/vendored-build.test.ts).
 */
export const SAFE_CANONICAL: Record<SafeContract, { address: Address; codeHash: Hex }> = {
  SafeL2: {
    address: '0xEdd160fEBBD92E350D4D398fb636302fccd67C7e',
    codeHash: '0x180193227186ccb85316c94db1f0d156ed932b14712cfaac78901899178572dc',
  },
  SafeProxyFactory: {
    address: '0x14F2982D601c9458F93bd70B218933A6f8165e7b',
    codeHash: '0x967dae4cda22b0c9ef7f31b010bdc1ceb0af9904b0c3dc060b5302e4c18a4529',
  },
  CompatibilityFallbackHandler: {
    address: '0x3EfCBb83A4A7AfcB4F68D501E2c2203a38be77f4',
    codeHash: '0x3c6a85bcf7b563daa624b884b4e9a1b9fa5371edde7be945d998071a48f28bbc',
  },
  MultiSendCallOnly: {
    address: '0xA83c336B20401Af773B6219BA5027174338D1836',
    codeHash: '0xcdbdcec38d2f1c7d961b0029ff8416b7e86e9974d6f0e9c9580c7d17fcfb6663',
  },
};

/** The address a deterministic-deployment proxy gives `initCode` with salt 0. */
export function create2Address(factory: Address, initCode: Hex): Address {
  return getAddress(getContractAddress({ opcode: 'CREATE2', from: factory, salt: zeroHash, bytecode: initCode }));
}

type LinkReferences = Record<string, Record<string, { start: number; length: number }[]>>;

/** Roles' creation (or runtime) code with its two libraries' addresses written into their slots. */
export function linkRoles(libraries: { Integrity: Address; Packer: Address }, runtime = false): Hex {
  const artifact = loadArtifact('Roles') as ReturnType<typeof loadArtifact> & {
    linkReferences: LinkReferences;
    deployedLinkReferences: LinkReferences;
  };
  let code = (runtime ? artifact.deployedBytecode : artifact.bytecode).slice(2);
  for (const byName of Object.values(runtime ? artifact.deployedLinkReferences : artifact.linkReferences)) {
    for (const [name, slots] of Object.entries(byName)) {
      const address = libraries[name as keyof typeof libraries];
      if (!address) throw new Error(`Roles links a library ${name} the platform does not deploy`);
      for (const { start, length } of slots) {
        code = code.slice(0, start * 2) + address.slice(2).toLowerCase() + code.slice((start + length) * 2);
      }
    }
  }
  if (code.includes('__')) throw new Error('Roles has an unlinked library left');
  return `0x${code}`;
}

/**
 * The Roles mastercopy's constructor arguments: owner, avatar and target all 0x…01, as Zodiac deploys its
 * mastercopies, so the mastercopy itself is set up once and can never act for anyone.
 */
const MASTERCOPY_ARGS = padHex('0x01', { size: 32 });

/** A library's runtime code begins with PUSH20 of its own address (its guard against calls other than
 * delegatecalls), zero in the artifact and written in at deployment; any other contract's is as compiled. */
function runtimeAt(code: Hex, address: Address): Hex {
  const placeholder = `0x73${'0'.repeat(40)}`;
  return code.startsWith(placeholder) ? `0x73${address.slice(2).toLowerCase()}${code.slice(placeholder.length)}` : code;
}

/**
 * The ERC-2470 singleton factory: Zodiac Roles stores each function's conditions as the code of a contract it creates
 * through this factory (WriteOnce.sol), so the chain must have it. It is deployed by a keyless transaction (the same
 * signed bytes on every chain, from an address whose key nobody has), funded with 0.0247 ETH for its gas.
 */
export const ERC2470 = {
  address: '0xce0042B868300000d44A59004Da54A005ffdcf9f' as Address,
  deployer: '0xBb6e024b9cFFACB947A71991E386681B1Cd1477D' as Address,
  funding: 24_700_000_000_000_000n,
  signedDeployTransaction:
    '0xf9016c8085174876e8008303c4d88080b90154608060405234801561001057600080fd5b50610134806100206000396000f3fe6080604052348015600f57600080fd5b506004361060285760003560e01c80634af63f0214602d575b600080fd5b60cf60048036036040811015604157600080fd5b810190602081018135640100000000811115605b57600080fd5b820183602082011115606c57600080fd5b80359060200191846001830284011164010000000083111715608d57600080fd5b91908080601f016020809104026020016040519081016040528093929190818152602001838380828437600092019190915250929550509135925060eb915050565b604080516001600160a01b039092168252519081900360200190f35b6000818351602085016000f5939250505056fea26469706673582212206b44f8a82cb6b156bfcc3dc6aadd6df4eefd204bc928a4397fd15dacf6d5320564736f6c634300060200331b83247000822470' as Hex,
  runtime:
    '0x6080604052348015600f57600080fd5b506004361060285760003560e01c80634af63f0214602d575b600080fd5b60cf60048036036040811015604157600080fd5b810190602081018135640100000000811115605b57600080fd5b820183602082011115606c57600080fd5b80359060200191846001830284011164010000000083111715608d57600080fd5b91908080601f016020809104026020016040519081016040528093929190818152602001838380828437600092019190915250929550509135925060eb915050565b604080516001600160a01b039092168252519081900360200190f35b6000818351602085016000f5939250505056fea26469706673582212206b44f8a82cb6b156bfcc3dc6aadd6df4eefd204bc928a4397fd15dacf6d5320564736f6c63430006020033' as Hex,
};

export interface CustodyPlan {
  /** The factory the Safe contracts go through: Safe's own where the chain has it, else CREATE2_DEPLOYER. */
  safeFactory: Address;
  safe: Record<SafeContract, { address: Address; initCode: Hex }>;
  /** Through CREATE2_DEPLOYER: Roles' libraries first, then the Roles mastercopy linked to them, its proxy factory,
   * the platform's SafeModuleSetup (which enables a company's module while its Safe is set up) and the
   * implementation of CardSafeOwner, whose clones own the companies' Safes. */
  roles: { name: string; address: Address; initCode: Hex; codeHash: Hex }[];
}

/** What each custody singleton's address is on a chain whose Safe contracts go through `safeFactory`. */
export function custodyPlan(safeFactory: Address): CustodyPlan {
  const safe = {} as CustodyPlan['safe'];
  for (const name of SAFE_CONTRACTS) {
    const initCode = loadArtifact(name).bytecode as Hex;
    safe[name] = { address: create2Address(safeFactory, initCode), initCode };
  }
  const lib = (name: string) => {
    const artifact = loadArtifact(name);
    const initCode = artifact.bytecode as Hex;
    const address = create2Address(CREATE2_DEPLOYER, initCode);
    return { name, address, initCode, codeHash: keccak256(runtimeAt(artifact.deployedBytecode as Hex, address)) };
  };
  const integrity = lib('Integrity');
  const packer = lib('Packer');
  const libraries = { Integrity: integrity.address, Packer: packer.address };
  const rolesCode = concat([linkRoles(libraries), MASTERCOPY_ARGS, MASTERCOPY_ARGS, MASTERCOPY_ARGS]);
  const roles = {
    name: 'Roles',
    address: create2Address(CREATE2_DEPLOYER, rolesCode),
    initCode: rolesCode,
    codeHash: keccak256(linkRoles(libraries, true)),
  };
  return {
    safeFactory,
    safe,
    roles: [integrity, packer, roles, lib('ModuleProxyFactory'), lib('SafeModuleSetup'), lib('CardSafeOwner')],
  };
}

export interface CustodySingletons {
  safeSingleton: Address;
  safeProxyFactory: Address;
  safeFallbackHandler: Address;
  safeMultiSendCallOnly: Address;
  rolesSingleton: Address;
  moduleProxyFactory: Address;
  safeModuleSetup: Address;
  cardSafeOwner: Address;
}

async function codeOf(clients: ChainClients, address: Address): Promise<Hex | undefined> {
  const code = await clients.publicClient.getCode({ address });
  return code && code !== '0x' ? code : undefined;
}

/**
 * Deploys each custody singleton the chain lacks and checks every one's code: a Safe contract must carry its
 * canonical code hash, a vendored one the code of this build. A development chain (`dev`) without Safe's singleton
 * factory gets it (anvil_setCode, with CREATE2_DEPLOYER's code), so its Safe contracts land at the canonical addresses;
 * another chain without it deploys them through CREATE2_DEPLOYER at addresses of their own.
 */
export async function deployCustodySingletons(
  clients: ChainClients,
  options: { dev: boolean; log?: (msg: string) => void },
): Promise<CustodySingletons> {
  const log = options.log ?? (() => {});
  const create2 = await codeOf(clients, CREATE2_DEPLOYER);
  if (!create2) throw new Error(`the chain has no CREATE2 deployer at ${CREATE2_DEPLOYER}; custody cannot be deployed`);
  let factory: Address = SAFE_SINGLETON_FACTORY;
  if (!(await codeOf(clients, SAFE_SINGLETON_FACTORY))) {
    if (options.dev) {
      await clients.publicClient.request({
        method: 'anvil_setCode' as never,
        params: [SAFE_SINGLETON_FACTORY, create2] as never,
      });
    } else {
      factory = CREATE2_DEPLOYER;
    }
  }
  if (!(await codeOf(clients, ERC2470.address))) {
    if (options.dev) {
      await clients.publicClient.request({
        method: 'anvil_setCode' as never,
        params: [ERC2470.address, ERC2470.runtime] as never,
      });
    } else {
      // The keyless deployment: fund its sender, then send its signed bytes as they are.
      const balance = await clients.publicClient.getBalance({ address: ERC2470.deployer });
      if (balance < ERC2470.funding) {
        const hash = await clients.platform.sendTransaction({
          to: ERC2470.deployer,
          value: ERC2470.funding - balance,
          chain: clients.viemChain,
        } as never);
        await clients.publicClient.waitForTransactionReceipt({ hash });
      }
      const hash = await clients.publicClient.sendRawTransaction({
        serializedTransaction: ERC2470.signedDeployTransaction,
      });
      await clients.publicClient.waitForTransactionReceipt({ hash });
      log(`deployed the ERC-2470 singleton factory at ${ERC2470.address}`);
    }
  }
  if ((await codeOf(clients, ERC2470.address)) !== ERC2470.runtime) {
    throw new Error(`the ERC-2470 singleton factory at ${ERC2470.address} does not carry its code`);
  }
  const plan = custodyPlan(factory);
  const ensure = async (name: string, via: Address, address: Address, initCode: Hex, codeHash: Hex) => {
    let code = await codeOf(clients, address);
    if (!code) {
      const hash = await clients.platform.sendTransaction({
        to: via,
        data: concat([zeroHash, initCode]),
        chain: clients.viemChain,
      } as never);
      const receipt = await clients.publicClient.waitForTransactionReceipt({ hash });
      if (receipt.status !== 'success') throw new Error(`deployment of ${name} at ${address} reverted (${hash})`);
      code = await codeOf(clients, address);
      log(`deployed ${name} at ${address}`);
    }
    if (!code || keccak256(code) !== codeHash) {
      throw new Error(`the ${name} at ${address} does not carry the expected code (hash ${codeHash})`);
    }
  };
  for (const name of SAFE_CONTRACTS) {
    const { address, initCode } = plan.safe[name];
    await ensure(name, factory, address, initCode, SAFE_CANONICAL[name].codeHash);
  }
  for (const { name, address, initCode, codeHash } of plan.roles) {
    await ensure(name, CREATE2_DEPLOYER, address, initCode, codeHash);
  }
  const roles = Object.fromEntries(plan.roles.map((r) => [r.name, r.address]));
  return {
    safeSingleton: plan.safe.SafeL2.address,
    safeProxyFactory: plan.safe.SafeProxyFactory.address,
    safeFallbackHandler: plan.safe.CompatibilityFallbackHandler.address,
    safeMultiSendCallOnly: plan.safe.MultiSendCallOnly.address,
    rolesSingleton: roles.Roles!,
    moduleProxyFactory: roles.ModuleProxyFactory!,
    safeModuleSetup: roles.SafeModuleSetup!,
    cardSafeOwner: roles.CardSafeOwner!,
  };
}

/** Creation code of the launcher's approver (contracts/custody/LauncherApprover.sol), one per launcher. */
export function launcherApproverInitCode(launcher: Address): Hex {
  const artifact = loadArtifact('LauncherApprover');
  return encodeDeployData({ abi: artifact.abi, bytecode: artifact.bytecode, args: [launcher] });
}

/**
 * Deploys the approver a company's trading role delegatecalls to approve the launcher for any token (CREATE2, salt
 * 0, so its address follows from the launcher's), unless the chain has it; returns its address.
 */
export async function deployLauncherApprover(
  clients: ChainClients,
  launcher: Address,
  log: (msg: string) => void = () => {},
): Promise<Address> {
  const initCode = launcherApproverInitCode(launcher);
  const address = create2Address(CREATE2_DEPLOYER, initCode);
  if (!(await codeOf(clients, address))) {
    const hash = await clients.platform.sendTransaction({
      to: CREATE2_DEPLOYER,
      data: concat([zeroHash, initCode]),
      chain: clients.viemChain,
    } as never);
    const receipt = await clients.publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success')
      throw new Error(`deployment of LauncherApprover at ${address} reverted (${hash})`);
    log(`deployed LauncherApprover at ${address}`);
  }
  if (!(await codeOf(clients, address))) throw new Error(`the LauncherApprover at ${address} has no code`);
  return address;
}
