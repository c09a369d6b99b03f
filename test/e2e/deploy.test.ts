// `npm run cli -- deploy` against a second anvil process standing in for an external chain (chain id 84532, not a
// development chain), on which an outsider deployed a Uniswap v4 PoolManager (v4-core's compiled artifact) and a
// USDC first: an interrupted deployment (cut right after a creation was recorded but before it was sent, and right
// after one was mined but before it was recorded) resumes without deploying anything twice, the CLI finishes it and
// writes the contracts file and the standard-JSON input, and a service started with CHAIN_RPC_URL and CONTRACTS_FILE
// runs the whole flow there: a card, a company, its suite, a token graduated into that PoolManager, a round, an
// epoch finalized and claimed.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  AccessCardAbi,
  CompanyTokenAbi,
  EpochDistributorAbi,
  MockUSDCAbi,
  PlatformTimelockAbi,
  PrimaryTokenAbi,
  TokenLauncherAbi,
} from '@ai-economy/shared/abis';
import {
  type Abi,
  type Address,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  getAddress,
  getContractAddress,
  type Hex,
  http,
  isAddressEqual,
  maxUint256,
  toHex,
  zeroHash,
} from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnvilNode, startAnvil } from '../../src/chain/anvil.ts';
import { loadArtifact } from '../../src/chain/artifacts.ts';
import { createChainClients, devAccount, makeViemChain } from '../../src/chain/client.ts';
import {
  CONTRACT_KEYS,
  type ContractsFile,
  CUSTODY_CONTRACT_KEYS,
  readContractsFile,
  writeContractsFile,
} from '../../src/chain/contracts/addresses.ts';
import { deployPlatform } from '../../src/chain/deploy.ts';
import { standardInputPathFor } from '../../src/chain/deploy-command.ts';
import { openChain } from '../../src/chain/index.ts';
import { loadConfig } from '../../src/config.ts';
import {
  killServices,
  runCli,
  type ServiceDatabase,
  type ServiceProcess,
  serviceDatabase,
  signedFetch,
  startService,
} from '../helpers/process.ts';

const CHAIN_ID = 84532;
const dir = mkdtempSync(path.join(tmpdir(), 'aie-deploy-'));
const contractsFile = path.join(dir, 'base-test.contracts.json');
const keyOf = (i: number) => toHex(devAccount(i).getHdKey().privateKey!);
const deployer = devAccount(1);
const platform = devAccount(2);
const oracle = devAccount(3);
const feeRecipient = devAccount(4);
const founder = devAccount(5);
const outsider = devAccount(9);
/** The operator's multisig: the timelock's proposer (`--owner`). */
const multisig = devAccount(8);
const CRON_SECRET = 'deploy-test-cron-secret';

let node: AnvilNode;
let db: ServiceDatabase;
let service: ServiceProcess | undefined;
let usdc: Address;
let poolManager: Address;
const viemChain = () => makeViemChain(CHAIN_ID, node.rpcUrl);
const client = () => createPublicClient({ chain: viemChain(), transport: http(node.rpcUrl) });
const walletOf = (account: ReturnType<typeof devAccount>) =>
  createWalletClient({ account, chain: viemChain(), transport: http(node.rpcUrl) });

async function send(account: ReturnType<typeof devAccount>, call: Record<string, unknown>): Promise<void> {
  const hash = await walletOf(account).writeContract(call as any);
  const receipt = await client().waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe('success');
}

async function deployAs(account: ReturnType<typeof devAccount>, name: string, args: unknown[]): Promise<Address> {
  const artifact = loadArtifact(name);
  const hash = await walletOf(account).deployContract({ abi: artifact.abi as Abi, bytecode: artifact.bytecode, args });
  return getAddress((await client().waitForTransactionReceipt({ hash })).contractAddress!);
}

/** The deployer's contract creations on the chain and the gas of all its transactions, read from every block. */
async function deployerActivity(from: Address): Promise<{ creations: number; gas: bigint }> {
  const latest = await client().getBlockNumber({ cacheTime: 0 });
  let creations = 0;
  let gas = 0n;
  for (let n = 0n; n <= latest; n++) {
    const block = await client().getBlock({ blockNumber: n, includeTransactions: true });
    for (const tx of block.transactions.filter((t) => isAddressEqual(t.from, from))) {
      if (tx.to === null) creations++;
      gas += (await client().getTransactionReceipt({ hash: tx.hash })).gasUsed;
    }
  }
  return { creations, gas };
}

/** The environment of both the deploy command and the service: the chain, the file and the role keys. */
const chainEnv = () => ({
  CHAIN_RPC_URL: node.rpcUrl,
  CONTRACTS_FILE: contractsFile,
  PLATFORM_PRIVATE_KEY: keyOf(2),
  ORACLE_PRIVATE_KEY: keyOf(3),
  BASE_URL: 'https://aie.example',
});

class Crash extends Error {}

beforeAll(async () => {
  node = await startAnvil({ chainId: CHAIN_ID });
  // What the external chain has before the platform arrives: Uniswap's PoolManager and a USDC.
  poolManager = await deployAs(outsider, 'PoolManager', [outsider.address]);
  usdc = await deployAs(outsider, 'MockUSDC', [outsider.address]);
  db = await serviceDatabase(dir);
}, 60_000);

afterAll(async () => {
  killServices();
  await node?.stop();
  await db?.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe('npm run cli -- deploy on an external chain', () => {
  it('refuses a chain whose USDC and PoolManager it does not know, and bad addresses, before sending anything', async () => {
    const noMocks = await runCli(['deploy'], { ...chainEnv(), DEPLOYER_PRIVATE_KEY: keyOf(1) });
    expect(noMocks.code).toBe(1);
    expect(noMocks.stderr).toContain('pass --usdc ADDRESS and --pool-manager ADDRESS');
    // Outside a development chain the owner must be named: a deployment the hot key owns is what the timelock replaced.
    const noOwner = await runCli(['deploy', '--usdc', usdc, '--pool-manager', poolManager], {
      ...chainEnv(),
      DEPLOYER_PRIVATE_KEY: keyOf(1),
    });
    expect(noOwner.code).toBe(1);
    expect(noOwner.stderr).toContain('pass --owner ADDRESS');
    // the chain's USDC with one letter's case flipped: a mistyped checksum
    const i = [...usdc].findIndex((ch, k) => k > 1 && /[a-fA-F]/.test(ch));
    const flip = (ch: string) => (ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase());
    const mistyped = `${usdc.slice(0, i)}${flip(usdc[i]!)}${usdc.slice(i + 1)}`;
    const bad = await runCli(['deploy', '--usdc', mistyped, '--pool-manager', poolManager], {
      ...chainEnv(),
      DEPLOYER_PRIVATE_KEY: keyOf(1),
    });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('wrong EIP-55 checksum');
    expect(await client().getTransactionCount({ address: deployer.address })).toBe(0);
    expect(readContractsFile(contractsFile)).toBeUndefined();
  }, 60_000);

  it('resumes a deployment cut before a creation was sent and after one was mined, deploying nothing twice', async () => {
    const clients = createChainClients({
      chainId: CHAIN_ID,
      rpcUrl: node.rpcUrl,
      local: false,
      timeoutMs: 5000,
      platformKey: keyOf(1),
      oracleKey: keyOf(1),
    });
    const options = {
      baseUrl: 'https://aie.example',
      roles: {
        owner: multisig.address,
        platform: platform.address,
        oracle: oracle.address,
        feeRecipient: feeRecipient.address,
      },
      usdc,
      poolManager,
      fundDevAccounts: false,
      openMinting: false,
    };
    // Cut 1: the access card's creation is signed and written to the file, and the process dies before sending it.
    await expect(
      deployPlatform(clients, undefined, {
        ...options,
        save: (f) => {
          writeContractsFile(contractsFile, f);
          if (f.pending?.key === 'accessCard') throw new Crash('killed before sending');
        },
      }),
    ).rejects.toThrow(Crash);
    let saved = readContractsFile(contractsFile)!;
    expect(saved.complete).toBe(false);
    expect(saved.pending?.key).toBe('accessCard');
    // Only the timelock, created first, was sent.
    expect(await client().getTransactionCount({ address: deployer.address })).toBe(1);
    expect(saved.contracts.timelock).toBe(getContractAddress({ from: deployer.address, nonce: 0n }));

    // Cut 2: resumed, it sends that very transaction, goes on, and dies after the staking contract was mined but
    // before the file recorded it (the write is lost with the process).
    await expect(
      deployPlatform(clients, saved, {
        ...options,
        save: (f) => {
          if (f.contracts.staking) throw new Crash('killed before recording');
          writeContractsFile(contractsFile, f);
        },
      }),
    ).rejects.toThrow(Crash);
    saved = readContractsFile(contractsFile)!;
    expect(saved.contracts.accessCard).toBe(getContractAddress({ from: deployer.address, nonce: 1n }));
    expect(saved.pending?.key).toBe('staking');
    expect(saved.contracts.staking).toBeUndefined();
    const stakingAt = getContractAddress({ from: deployer.address, nonce: BigInt(saved.pending!.nonce) });
    expect(await client().getCode({ address: stakingAt })).toMatch(/^0x.{10,}/);

    // A service refuses the file of a deployment that did not finish.
    await expect(openChain(loadConfig(chainEnv()), () => {})).rejects.toThrow('did not finish');

    // The CLI finishes it: the staking contract already mined is adopted, not deployed again.
    const run = await runCli(
      [
        'deploy',
        '--owner',
        multisig.address,
        '--usdc',
        usdc,
        '--pool-manager',
        poolManager,
        '--fee-recipient',
        feeRecipient.address,
      ],
      {
        ...chainEnv(),
        DEPLOYER_PRIVATE_KEY: keyOf(1),
      },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`Resuming the deployment recorded in ${contractsFile}`);
    expect(run.stdout).toContain('Card minting is closed');
    const file = readContractsFile(contractsFile)!;
    expect(file).toMatchObject({ chainId: CHAIN_ID, complete: true });
    expect(file.pending).toBeUndefined();
    expect(file.contracts.staking).toBe(stakingAt);
    expect(file.contracts.usdc).toBe(usdc);
    expect(file.contracts.poolManager).toBe(poolManager);
    for (const key of CONTRACT_KEYS) {
      expect(await client().getCode({ address: file.contracts[key]! }), key).toMatch(/^0x.{10,}/);
      if (key !== 'usdc' && key !== 'poolManager') expect(file.deployBlocks?.[key], key).toMatch(/^\d+$/);
    }
    // Ten contracts of its own (the hook comes from the CREATE2 deployer): ten creations, none twice.
    const activity = await deployerActivity(deployer.address);
    expect(activity.creations).toBe(10);
    console.log(`deployment gas (all of the deployer's transactions): ${activity.gas}`);

    // Run again: a finished deployment is checked, and nothing is sent.
    const nonce = await client().getTransactionCount({ address: deployer.address });
    const again = await runCli(['deploy', '--owner', multisig.address, '--usdc', usdc, '--pool-manager', poolManager], {
      ...chainEnv(),
      DEPLOYER_PRIVATE_KEY: keyOf(1),
    });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('already holds a finished deployment');
    // and a run that would give a role to someone else is refused: the deployed contracts hold the first.
    const other = await runCli(
      [
        'deploy',
        '--owner',
        multisig.address,
        '--usdc',
        usdc,
        '--pool-manager',
        poolManager,
        '--fee-recipient',
        founder.address,
      ],
      {
        ...chainEnv(),
        DEPLOYER_PRIVATE_KEY: keyOf(1),
      },
    );
    expect(other.code).toBe(1);
    expect(other.stderr).toContain(`this deployment was started with feeRecipient ${feeRecipient.address}`);
    expect(await client().getTransactionCount({ address: deployer.address })).toBe(nonce);
  }, 120_000);

  it('gives each role to its address, keeps no minting right, and leaves minting closed', async () => {
    const file = readContractsFile(contractsFile)!;
    const read = (address: Address, abi: Abi, functionName: string, args: unknown[] = []) =>
      client().readContract({ address, abi, functionName, args } as any);
    const c = file.contracts as Required<ContractsFile['contracts']>;
    // The timelock owns everything; the deployer, the platform and the oracle keep no owner's power (`cli keys`).
    for (const key of ['accessCard', 'staking', 'distributor', 'tokenLauncher', 'feeHook'] as const) {
      expect(await read(c[key], AccessCardAbi as Abi, 'owner'), key).toBe(c.timelock);
    }
    expect(await read(c.primaryToken, PrimaryTokenAbi as Abi, 'defaultAdmin')).toBe(c.timelock);
    const keys = await runCli(['keys'], { ...chainEnv() });
    expect(keys.code, keys.stderr).toBe(0);
    expect(keys.stdout).toContain("No key of the service holds an owner's power.");
    expect(keys.stdout).toContain(`timelock            owner  PROPOSER_ROLE`);
    expect(await read(c.accessCard, AccessCardAbi as Abi, 'platform')).toBe(platform.address);
    expect(await read(c.accessCard, AccessCardAbi as Abi, 'mintActive')).toBe(false);
    expect(await read(c.tokenLauncher, TokenLauncherAbi as Abi, 'platform')).toBe(platform.address);
    expect(await read(c.tokenLauncher, TokenLauncherAbi as Abi, 'feeRecipient')).toBe(feeRecipient.address);
    expect(await read(c.tokenLauncher, TokenLauncherAbi as Abi, 'feeHook')).toBe(c.feeHook);
    expect(await read(c.distributor, EpochDistributorAbi as Abi, 'oracle')).toBe(oracle.address);
    const minter = (await read(c.primaryToken, PrimaryTokenAbi as Abi, 'MINTER_ROLE')) as Hex;
    expect(await read(c.primaryToken, PrimaryTokenAbi as Abi, 'hasRole', [minter, deployer.address])).toBe(false);
    expect(await read(c.primaryToken, PrimaryTokenAbi as Abi, 'hasRole', [minter, c.distributor])).toBe(true);
  });

  it("writes a standard-JSON input that compiles to the deployed bytecode, and each contract's verification data", async () => {
    const file = readContractsFile(contractsFile)!;
    const standard = JSON.parse(readFileSync(standardInputPathFor(contractsFile), 'utf8'));
    const solc = createRequire(import.meta.url)('solc');
    expect(standard.compilerVersion).toBe(`v${solc.version().replace(/\.Emscripten.*$/, '')}`);
    // Compiled alone (no import callback: every source is in it), it gives the bytecode that was deployed. Only the
    // card's bytecode is asked for (the output selection is not part of the metadata the bytecode embeds), so solc
    // generates no other contract's code.
    const [source, name] = file.verification!.accessCard!.contract.split(':') as [string, string];
    const input = {
      ...standard.input,
      settings: { ...standard.input.settings, outputSelection: { [source]: { [name]: ['evm.bytecode.object'] } } },
    };
    const output = JSON.parse(solc.compile(JSON.stringify(input)));
    expect((output.errors ?? []).filter((e: { severity: string }) => e.severity === 'error')).toEqual([]);
    expect(`0x${output.contracts[source][name].evm.bytecode.object}`).toBe(loadArtifact('AccessCard').bytecode);
    // The creation transaction's input is that bytecode followed by the recorded constructor arguments.
    const deployBlock = BigInt(file.deployBlocks!.accessCard!);
    const block = await client().getBlock({ blockNumber: deployBlock, includeTransactions: true });
    const creation = block.transactions.find((tx) => tx.to === null && isAddressEqual(tx.from, deployer.address))!;
    expect(creation.input).toBe(
      `${loadArtifact('AccessCard').bytecode}${file.verification!.accessCard!.constructorArgs.slice(2)}`,
    );
    // The chain's own USDC and PoolManager are not the deployment's; the custody singletons are deterministic
    // deployments of code built elsewhere (Safe's npm artifacts, the vendored Roles build).
    for (const key of CONTRACT_KEYS.filter(
      (k) => k !== 'usdc' && k !== 'poolManager' && !(CUSTODY_CONTRACT_KEYS as readonly string[]).includes(k),
    )) {
      expect(file.verification?.[key]?.contract, key).toMatch(/^contracts\/.+\.sol:\w+$/);
    }
  }, 180_000);

  it('runs the whole flow on that chain with a service started with CHAIN_RPC_URL and CONTRACTS_FILE', async () => {
    const c = readContractsFile(contractsFile)!.contracts as Required<ContractsFile['contracts']>;
    service = await startService({
      ...chainEnv(),
      ...db.env,
      DATA_DIR: dir,
      CHAIN_CONFIRMATIONS: '0',
      CRON_SECRET,
      GRADUATION_THRESHOLD_USD: '100',
      MANUAL_ROUND_COOLDOWN_S: '0',
    });
    const base = service.base;
    const chainInfo = ((await (await fetch(`${base}/api/chain`)).json()) as any).data;
    expect(chainInfo.chainId).toBe(CHAIN_ID);
    expect(chainInfo.contracts.poolManager).toBe(poolManager);

    expect(chainInfo.roles).toEqual({
      service: platform.address,
      oracle: oracle.address,
      owner: c.timelock,
      ownerDelaySeconds: 2 * 86_400,
    });

    // The owner opens minting through the timelock (docs/operations.md step 7): scheduled, then two days later
    // executed. The deployer cannot any more.
    const open = encodeFunctionData({ abi: AccessCardAbi, functionName: 'setMintActive', args: [true] });
    const op = [c.accessCard, 0n, open, zeroHash, zeroHash] as const;
    await send(multisig, {
      address: c.timelock,
      abi: PlatformTimelockAbi,
      functionName: 'schedule',
      args: [...op, 2n * 86_400n],
    });
    await client().request({ method: 'evm_increaseTime' as never, params: [2 * 86_400] as never });
    await client().request({ method: 'evm_mine' as never, params: [] as never });
    await send(multisig, { address: c.timelock, abi: PlatformTimelockAbi, functionName: 'execute', args: op });
    expect(await client().readContract({ address: c.accessCard, abi: AccessCardAbi, functionName: 'mintActive' })).toBe(
      true,
    );
    // The founder buys a card with the chain's USDC.
    await send(outsider, {
      address: usdc,
      abi: MockUSDCAbi,
      functionName: 'mint',
      args: [founder.address, 100_000n * 10n ** 6n],
    });
    const price = await client().readContract({ address: c.accessCard, abi: AccessCardAbi, functionName: 'mintPrice' });
    await send(founder, { address: usdc, abi: MockUSDCAbi, functionName: 'approve', args: [c.accessCard, price] });
    await send(founder, { address: c.accessCard, abi: AccessCardAbi, functionName: 'mint', args: [price] });

    const post = (url: string, body?: unknown) => signedFetch(base, founder, 'POST', url, body);
    const get = async (url: string) => ((await (await fetch(`${base}${url}`)).json()) as any).data;
    const created = await post('/api/companies', {
      name: 'Base Live',
      category: 'DEFI_YIELD',
      treasuryAddress: founder.address,
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const company = ((await created.json()) as any).data;
    const suite = await post(`/api/companies/${company.id}/deploy-suite`);
    expect(suite.status, await suite.clone().text()).toBe(200);
    expect(((await suite.json()) as any).data.created.map((a: any) => a.status)).toEqual(Array(7).fill('ACTIVE'));

    // A token, bought past its threshold: it graduates into the chain's PoolManager.
    const launched = await post(`/api/companies/${company.id}/token`, { name: 'Base Live', symbol: 'BLIVE' });
    expect(launched.status, await launched.clone().text()).toBe(201);
    const token = ((await launched.json()) as any).data.tokenAddress as Address;
    await send(founder, {
      address: usdc,
      abi: MockUSDCAbi,
      functionName: 'approve',
      args: [c.tokenLauncher, maxUint256],
    });
    await send(founder, {
      address: token,
      abi: CompanyTokenAbi,
      functionName: 'approve',
      args: [c.tokenLauncher, maxUint256],
    });
    await send(founder, {
      address: c.tokenLauncher,
      abi: TokenLauncherAbi,
      functionName: 'buy',
      args: [token, 200n * 10n ** 6n, 0n, maxUint256],
    });
    expect(
      await client().readContract({
        address: c.tokenLauncher,
        abi: TokenLauncherAbi,
        functionName: 'graduated',
        args: [token],
      }),
    ).toBe(true);
    const key = await client().readContract({
      address: c.tokenLauncher,
      abi: TokenLauncherAbi,
      functionName: 'poolKeyOf',
      args: [token],
    });
    expect(key.hooks).toBe(c.feeHook);
    await expect
      .poll(async () => (await get(`/api/companies/${company.id}/token`)).status, { timeout: 30_000 })
      .toBe('GRADUATED');
    expect(
      await client().readContract({ address: c.tokenLauncher, abi: TokenLauncherAbi, functionName: 'poolManager' }),
    ).toBe(poolManager);

    // A decision round, anchored by the platform key on this chain.
    const round = await post(`/api/companies/${company.id}/decisions/run`);
    expect(round.status, await round.clone().text()).toBe(201);

    // Today's scores, then the chain's clock past the epoch's end: the oracle finalizes it and the founder claims.
    const cron = (url: string) =>
      fetch(`${base}${url}`, { method: 'POST', headers: { authorization: `Bearer ${CRON_SECRET}` } });
    // Scores wait until the day's last block is finalized (docs/indexer.md "Finality and money"): here the chain's
    // `finalized` tag, which anvil puts 64 blocks under its head.
    await client().request({ method: 'anvil_mine' as never, params: ['0x40'] as never });
    await expect
      .poll(
        async () => {
          const res = await cron('/api/cron/score-snapshot');
          expect(res.status).toBe(200);
          return ((await res.json()) as any).data.status as string;
        },
        { timeout: 30_000, interval: 500 },
      )
      .toMatch(/^(taken|exists)$/);
    const epoch = await get('/api/epochs/current');
    await client().request({ method: 'evm_increaseTime' as never, params: [epoch.nextEpochIn + 60] as never });
    await client().request({ method: 'evm_mine' as never, params: [] as never });
    const distributed = await cron('/api/cron/epoch-distribute');
    expect(distributed.status, await distributed.clone().text()).toBe(200);
    const claimable = await get(`/api/epochs/claimable/${company.id}`);
    expect(claimable.claimable.length, JSON.stringify(claimable)).toBeGreaterThan(0);
    const claim = await post('/api/epochs/claim', {
      companyId: company.id,
      epochNumber: claimable.claimable[0].epochNumber,
    });
    expect(claim.status, await claim.clone().text()).toBe(200);
    const paid = ((await claim.json()) as any).data;
    expect(BigInt(paid.amount)).toBeGreaterThan(0n);
    // Paid by the distributor on this chain, to the treasury, in primary tokens.
    expect(
      await client().readContract({
        address: c.primaryToken,
        abi: PrimaryTokenAbi,
        functionName: 'balanceOf',
        args: [founder.address],
      }),
    ).toBe(BigInt(paid.amount));
    expect(await service.stop()).toBe(0);
    service = undefined;
  }, 240_000);
});
