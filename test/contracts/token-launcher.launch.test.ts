// TokenLauncher, launch and administration: launch (platform only, one token per company key, name/symbol/threshold
// bounds, the fee hook must be set, the CREATE2 address, the whole supply held by the launcher, TokenLaunched, the
// opening price at a market cap of G/4), unknown tokens, the unlock callback's caller check, and the owner-only
// administration of the launcher and the fee hook. The curve is in token-launcher.curve.test.ts, graduation in
// token-launcher.graduation.test.ts, the v4 pool's protections in token-launcher.pool.test.ts.

import {
  CompanyTokenAbi,
  CompanyTokenDeployerAbi,
  MockUSDCAbi,
  PlatformFeeHookAbi,
  TokenLauncherAbi,
} from '@ai-economy/shared/abis';
import { type Abi, type Address, getAddress, maxUint256, parseEventLogs } from 'viem';
import { describe, expect, it } from 'vitest';
import { loadArtifact } from '../../src/chain/artifacts.ts';
import { forgetNonces } from '../../src/chain/client.ts';
import { tokenDeployerAddress } from '../../src/chain/contracts/launcher.ts';
import { deployFeeHook, type FeeHookArgs, feeHookDeployment } from '../../src/chain/deploy-steps.ts';
import { FEE_HOOK_FLAGS } from '../../src/chain/hook-address.ts';
import { expectRevert } from '../helpers/revert.ts';
import { usdc, ZERO } from './fixture.ts';
import {
  type Call,
  ceilDiv,
  G,
  initialCurve,
  keyOf,
  NAME,
  priceOfCurve,
  SUPPLY,
  SYMBOL,
  useTokenChain,
} from './token-fixture.ts';

const f = useTokenChain();

// ---------------------------------------------------------------- launch

describe('launch', () => {
  it('creates the token at its CREATE2 address with the whole supply held by the launcher, and emits TokenLaunched', async () => {
    const key = keyOf('company-1');
    const predicted = f.predictToken(key);
    expect(await f.client.getCode({ address: predicted })).toBeUndefined();
    const { token, receipt } = await f.launch({ key, creator: f.addr(5) });
    expect(token).toBe(predicted);
    expect((await f.client.getCode({ address: token }))?.length).toBeGreaterThan(2);
    const read = { address: token, abi: CompanyTokenAbi } as const;
    expect(await f.client.readContract({ ...read, functionName: 'name' })).toBe(NAME);
    expect(await f.client.readContract({ ...read, functionName: 'symbol' })).toBe(SYMBOL);
    expect(await f.client.readContract({ ...read, functionName: 'decimals' })).toBe(18);
    expect(await f.client.readContract({ ...read, functionName: 'totalSupply' })).toBe(SUPPLY);
    expect(await f.tokensOf(token, f.launcher())).toBe(SUPPLY);
    expect(
      await f.client.readContract({
        address: f.launcher(),
        abi: TokenLauncherAbi,
        functionName: 'tokenOfCompany',
        args: [key],
      }),
    ).toBe(token);

    const model = initialCurve(G);
    const [launched] = f.launcherEvents(receipt).filter((e) => e.eventName === 'TokenLaunched');
    expect(launched?.args).toEqual({
      companyKey: key,
      token,
      creator: f.addr(5),
      name: NAME,
      symbol: SYMBOL,
      graduationThreshold: G,
      graduationUsdc: model.gV - model.v0,
    });
    const s = await f.curveOf(token);
    expect(s).toEqual({
      companyKey: key,
      graduationThreshold: G,
      virtualUsdc: model.v0,
      virtualTokens: model.t0,
      k: model.k,
      realUsdc: 0n,
      graduationVirtualUsdc: model.gV,
      graduated: false,
      poolId: `0x${'0'.repeat(64)}`,
    });
    // The numbers of the default threshold, spelled out: (G/3, 4/3 supply), about G/3 raised at graduation.
    expect(model.v0).toBe(3_333_333_333n);
    expect(model.t0).toBe(1_333_333_333_333_333_333_333_333n);
    expect(model.gV).toBe(6_666_666_667n);
    expect(await f.graduated(token)).toBe(false);
  });

  it('opens at a market cap of G/4 (within rounding), for several thresholds', async () => {
    for (const [n, threshold] of [usdc(100), usdc(10_000), usdc(12_345) + 67n, usdc(1_000_000)].entries()) {
      const { token } = await f.launch({ key: keyOf(`cap-${n}`), threshold });
      const got = await f.priceOf(token);
      expect(got).toEqual(priceOfCurve(initialCurve(threshold)));
      expect(threshold / 4n - got.marketCap).toBeGreaterThanOrEqual(0n);
      expect(threshold / 4n - got.marketCap).toBeLessThanOrEqual(1n);
      // price (per whole token) * supply / 1e18 is the market cap, up to the rounding of the price
      expect(got.marketCap - (got.price * SUPPLY) / 10n ** 18n).toBeLessThan(10n ** 6n);
    }
    // G = 10,000 USDC: 0.0025 USDC a token, 2,500 USDC market cap (one unit less, from G/3 rounding down).
    expect(await f.priceOf(f.predictToken(keyOf('cap-1')))).toEqual({ price: 2_499n, marketCap: 2_499_999_999n });
  });

  it('accepts the smallest threshold and computes its graduation point exactly', async () => {
    const { token } = await f.launch({ threshold: usdc(100) });
    const model = initialCurve(usdc(100));
    expect((await f.curveOf(token)).graduationVirtualUsdc).toBe(model.gV);
    // the definition: gV reaches the threshold, gV - 1 does not
    expect((model.gV * SUPPLY) / ceilDiv(model.k, model.gV)).toBeGreaterThanOrEqual(usdc(100));
    expect(((model.gV - 1n) * SUPPLY) / ceilDiv(model.k, model.gV - 1n)).toBeLessThan(usdc(100));
  });

  it('is platform only', async () => {
    for (const i of [1, 5]) {
      await f.tracedRevert(
        i,
        f.launcherCall('launch', [keyOf('x'), NAME, SYMBOL, f.addr(i), G]),
        'LauncherUnauthorized',
        [f.addr(i)],
      );
    }
  });

  it('launches one token per company key, ever', async () => {
    const key = keyOf('company-1');
    await f.launch({ key });
    await f.tracedRevert(0, f.launcherCall('launch', [key, 'Other', 'OTH', f.addr(0), G]), 'LauncherAlreadyLaunched', [
      key,
    ]);
    // another key with the same name and symbol is a different token
    const { token } = await f.launch({ key: keyOf('company-2') });
    expect(token).not.toBe(f.predictToken(key));
  });

  it('bounds the name to 1-64 bytes and the symbol to 1-16 bytes (bytes, not characters)', async () => {
    const bad = async (name: string, symbol: string, error: string) =>
      f.tracedRevert(0, f.launcherCall('launch', [keyOf(`${name}/${symbol}`), name, symbol, f.addr(0), G]), error, []);
    await bad('', SYMBOL, 'LauncherInvalidName');
    await bad('n'.repeat(65), SYMBOL, 'LauncherInvalidName');
    await bad(`${'é'.repeat(32)}x`, SYMBOL, 'LauncherInvalidName'); // 32 characters, 65 bytes
    await bad(NAME, '', 'LauncherInvalidSymbol');
    await bad(NAME, 'S'.repeat(17), 'LauncherInvalidSymbol');
    await bad(NAME, `${'€'.repeat(5)}xx`, 'LauncherInvalidSymbol'); // 7 characters, 17 bytes

    const a = await f.launch({ key: keyOf('max-1'), name: 'n'.repeat(64), symbol: 'S'.repeat(16) });
    const b = await f.launch({ key: keyOf('max-2'), name: 'é'.repeat(32), symbol: 'x' });
    expect(await f.client.readContract({ address: a.token, abi: CompanyTokenAbi, functionName: 'name' })).toBe(
      'n'.repeat(64),
    );
    expect(await f.client.readContract({ address: b.token, abi: CompanyTokenAbi, functionName: 'name' })).toBe(
      'é'.repeat(32),
    );
    // An EIP-712 domain name holds 31 bytes at most: a longer name signs permits under the token's symbol.
    const domainName = async (token: Address) =>
      (await f.client.readContract({ address: token, abi: CompanyTokenAbi, functionName: 'eip712Domain' }))[1];
    expect(await domainName(a.token)).toBe('S'.repeat(16));
    expect(await domainName(b.token)).toBe('x');
    expect(await domainName((await f.launch({ key: keyOf('short'), name: 'n'.repeat(31) })).token)).toBe(
      'n'.repeat(31),
    );
  });

  it('rejects a threshold below 100 USDC', async () => {
    for (const threshold of [0n, 1n, usdc(100) - 1n]) {
      await f.tracedRevert(
        0,
        f.launcherCall('launch', [keyOf(`low-${threshold}`), NAME, SYMBOL, f.addr(0), threshold]),
        'LauncherThresholdTooLow',
        [threshold, usdc(100)],
      );
    }
  });

  it('rejects a threshold above 1 billion USDC', async () => {
    const max = usdc(1_000_000_000);
    for (const threshold of [max + 1n, 2n ** 128n]) {
      await f.tracedRevert(
        0,
        f.launcherCall('launch', [keyOf(`high-${threshold}`), NAME, SYMBOL, f.addr(0), threshold]),
        'LauncherThresholdTooHigh',
        [threshold, max],
      );
    }
  });

  it('at a threshold of exactly 1 billion USDC the packed state carries a token to graduation', async () => {
    const max = usdc(1_000_000_000);
    const { token } = await f.launch({ key: keyOf('max-threshold'), threshold: max });
    const start = await f.curveOf(token);
    expect(start).toMatchObject({
      graduationThreshold: max,
      virtualUsdc: max / 3n,
      k: (max / 3n) * ((SUPPLY * 4n) / 3n),
    });
    // a buyer with enough USDC buys it to graduation and a little beyond (the rest swaps in the new pool), in one
    // transaction: the curve's part plus its 1% fee, and 1% more
    const spend = ((start.graduationVirtualUsdc - start.virtualUsdc) * 102n) / 100n;
    await f.write(0, { address: f.usdcToken, abi: MockUSDCAbi as Abi, functionName: 'mint', args: [f.addr(1), spend] });
    await f.ready(1, token);
    const quote = await f.quoteBuy(token, spend);
    await f.buy(1, token, spend);
    expect(await f.graduated(token)).toBe(true);
    expect(await f.tokensOf(token, f.addr(1))).toBe(quote);
  });

  it('refuses to launch before the fee hook is set, and accepts only a hook with its flags, launcher and pool manager (a fresh launcher)', async () => {
    const artifact = loadArtifact('TokenLauncher');
    const hash = await f.wallet(0).deployContract({
      abi: TokenLauncherAbi,
      bytecode: artifact.bytecode,
      args: [f.usdcToken, f.poolManager(), f.addr(0), f.addr(0), f.addr(0)],
    });
    const fresh = (await f.send(Promise.resolve(hash))).contractAddress!;
    const call = (functionName: string, args: readonly unknown[]): Call => ({
      address: fresh,
      abi: TokenLauncherAbi as Abi,
      functionName,
      args,
    });
    expect(await f.client.readContract({ address: fresh, abi: TokenLauncherAbi, functionName: 'feeHook' })).toBe(ZERO);
    await f.tracedRevert(0, call('launch', [keyOf('c'), NAME, SYMBOL, f.addr(0), G]), 'LauncherFeeHookNotSet', []);
    // setFeeHook: owner only, not zero
    const hookFor = async (args: Partial<FeeHookArgs>) => {
      const deployment = feeHookDeployment({
        poolManager: f.poolManager(),
        launcher: fresh,
        usdc: f.usdcToken,
        feeRecipient: f.addr(0),
        owner: f.addr(0),
        ...args,
      });
      forgetNonces(await f.client.getChainId());
      await deployFeeHook(f.chain.chain, deployment);
      return deployment.address;
    };
    const right = await hookFor({});
    await f.tracedRevert(1, call('setFeeHook', [right]), 'OwnableUnauthorizedAccount', [f.addr(1)]);
    await f.tracedRevert(0, call('setFeeHook', [ZERO]), 'LauncherInvalidAddress', [ZERO]);
    // The attack: a wrong hook, accepted once and for good, would block every graduation. Each is refused.
    // An address without the fee hook's permission bits (an account's):
    const bits = (a: Address) => BigInt(a) & ((1n << 14n) - 1n);
    const eoa = f.addr(3);
    expect(bits(eoa)).not.toBe(FEE_HOOK_FLAGS);
    await f.tracedRevert(0, call('setFeeHook', [eoa]), 'LauncherFeeHookWrongFlags', [eoa, bits(eoa), FEE_HOOK_FLAGS]);
    // the right bits but no code
    const empty = getAddress(
      `0x${((BigInt(eoa) & ~((1n << 14n) - 1n)) | FEE_HOOK_FLAGS).toString(16).padStart(40, '0')}`,
    );
    await f.tracedRevert(0, call('setFeeHook', [empty]), 'LauncherFeeHookNotAHook', [empty]);
    // the fee hook of another launcher (the deployed one's),
    await f.tracedRevert(0, call('setFeeHook', [f.feeHook()]), 'LauncherFeeHookWrongLauncher', [
      f.feeHook(),
      f.launcher(),
    ]);
    // and a hook for this launcher that calls another pool manager is refused too.
    const otherManager = await hookFor({ poolManager: f.addr(5) });
    await f.tracedRevert(0, call('setFeeHook', [otherManager]), 'LauncherFeeHookWrongPoolManager', [
      otherManager,
      f.addr(5),
    ]);
    // and a hook built for another USDC, which would refuse every pool (HookNotUsdcPool) at graduation.
    const otherUsdc = await hookFor({ usdc: f.addr(6) });
    await f.tracedRevert(0, call('setFeeHook', [otherUsdc]), 'LauncherFeeHookWrongUsdc', [otherUsdc, f.addr(6)]);
    // The right hook is accepted.
    const set = await f.write(0, call('setFeeHook', [right]));
    expect(parseEventLogs({ abi: TokenLauncherAbi, logs: set.logs })[0]?.args).toEqual({ hook: right });
    await f.write(0, call('launch', [keyOf('c'), NAME, SYMBOL, f.addr(0), G]));
  });

  it('a hook found wrong before any token graduates can be replaced; the first graduation fixes it for good', async () => {
    const artifact = loadArtifact('TokenLauncher');
    const hash = await f.wallet(0).deployContract({
      abi: TokenLauncherAbi,
      bytecode: artifact.bytecode,
      args: [f.usdcToken, f.poolManager(), f.addr(0), f.addr(0), f.addr(0)],
    });
    const fresh = (await f.send(Promise.resolve(hash))).contractAddress!;
    const call = (functionName: string, args: readonly unknown[]): Call => ({
      address: fresh,
      abi: TokenLauncherAbi as Abi,
      functionName,
      args,
    });
    const hookFor = async (feeRecipient: Address) => {
      const deployment = feeHookDeployment({
        poolManager: f.poolManager(),
        launcher: fresh,
        usdc: f.usdcToken,
        feeRecipient,
        owner: f.addr(0),
      });
      forgetNonces(await f.client.getChainId());
      await deployFeeHook(f.chain.chain, deployment);
      return deployment.address;
    };
    // A hook whose fee recipient is not the one meant (any mistake the launcher cannot see), and tokens launched.
    const wrong = await hookFor(f.addr(9));
    await f.write(0, call('setFeeHook', [wrong]));
    await f.write(0, call('launch', [keyOf('a'), NAME, SYMBOL, f.addr(0), G]));
    await f.write(0, call('launch', [keyOf('b'), 'Other', 'OTHR', f.addr(0), G]));
    // No pool exists yet, so the owner replaces it.
    const right = await hookFor(f.addr(8));
    await f.write(0, call('setFeeHook', [right]));
    expect(await f.client.readContract({ address: fresh, abi: TokenLauncherAbi, functionName: 'feeHook' })).toBe(right);
    // The first graduation makes a pool with that hook, after which the hook stays.
    const token = (await f.client.readContract({
      address: fresh,
      abi: TokenLauncherAbi,
      functionName: 'tokenOfCompany',
      args: [keyOf('a')],
    })) as Address;
    await f.send(
      f
        .wallet(1)
        .writeContract({ address: f.usdcToken, abi: MockUSDCAbi, functionName: 'approve', args: [fresh, maxUint256] }),
    );
    await f.write(1, call('buy', [token, G * 2n, 0n, maxUint256]));
    expect(
      await f.client.readContract({ address: fresh, abi: TokenLauncherAbi, functionName: 'graduated', args: [token] }),
    ).toBe(true);
    const key = await f.client.readContract({
      address: fresh,
      abi: TokenLauncherAbi,
      functionName: 'poolKeyOf',
      args: [token],
    });
    expect(key.hooks).toBe(right);
    await f.tracedRevert(0, call('setFeeHook', [wrong]), 'LauncherFeeHookLocked', []);
  }, 180_000);

  it('answers LauncherUnknownToken for an address it did not launch', async () => {
    for (const functionName of ['quoteBuy', 'quoteSell', 'priceOf', 'graduated', 'curveOf', 'poolKeyOf'] as const) {
      const args = functionName === 'quoteBuy' || functionName === 'quoteSell' ? [f.usdcToken, 1n] : [f.usdcToken];
      await expectRevert(
        f.client.readContract({ address: f.launcher(), abi: TokenLauncherAbi, functionName, args } as any),
        'LauncherUnknownToken',
        [f.usdcToken],
      );
    }
    await f.ready(1, f.usdcToken);
    await f.tracedRevert(1, f.launcherCall('buy', [f.usdcToken, 1n, 0n, maxUint256]), 'LauncherUnknownToken', [
      f.usdcToken,
    ]);
  });
});

// ---------------------------------------------------------------- reentrancy and callbacks

describe('callbacks', () => {
  it('launches through its own token deployer (CREATE at nonce 1), which nobody else may call', async () => {
    const deployer = await f.client.readContract({
      address: f.launcher(),
      abi: TokenLauncherAbi,
      functionName: 'tokenDeployer',
    });
    expect(deployer).toBe(tokenDeployerAddress(f.launcher()));
    expect(
      await f.client.readContract({ address: deployer, abi: CompanyTokenDeployerAbi, functionName: 'launcher' }),
    ).toBe(f.launcher());
    const deploy = {
      address: deployer,
      abi: CompanyTokenDeployerAbi as Abi,
      functionName: 'deploy',
      args: [keyOf('squat'), NAME, SYMBOL, SUPPLY],
    };
    await f.tracedRevert(1, deploy, 'CompanyTokenDeployerUnauthorized', [f.addr(1)]);
    await f.tracedRevert(0, deploy, 'CompanyTokenDeployerUnauthorized', [f.addr(0)]);
  });

  it("only the pool manager may call the launcher's unlockCallback", async () => {
    // buy and sell are nonReentrant, but neither USDC nor the company token calls back into anyone, so there is no
    // honest reentrancy path to exercise; the only inbound callback is unlockCallback, which checks its caller.
    await f.tracedRevert(1, f.launcherCall('unlockCallback', ['0x']), 'LauncherUnauthorized', [f.addr(1)]);
  });
});

// ---------------------------------------------------------------- administration

describe('administration', () => {
  it('setFeeHook: set by the deployment; only the owner may change it, and not once a token graduated', async () => {
    expect(await f.client.readContract({ address: f.launcher(), abi: TokenLauncherAbi, functionName: 'feeHook' })).toBe(
      f.feeHook(),
    );
    await f.tracedRevert(1, f.launcherCall('setFeeHook', [f.addr(1)]), 'OwnableUnauthorizedAccount', [f.addr(1)]);
    const token = await f.launchSide('token0');
    await f.ready(1, token);
    await f.buy(1, token, G);
    expect(await f.graduated(token)).toBe(true);
    await f.tracedRevert(0, f.launcherCall('setFeeHook', [f.feeHook()]), 'LauncherFeeHookLocked', []);
  });

  it('setPlatform: owner only; the new platform launches and the old one cannot', async () => {
    await f.tracedRevert(3, f.launcherCall('setPlatform', [f.addr(3)]), 'OwnableUnauthorizedAccount', [f.addr(3)]);
    await f.tracedRevert(0, f.launcherCall('setPlatform', [ZERO]), 'LauncherInvalidAddress', [ZERO]);
    const receipt = await f.write(0, f.launcherCall('setPlatform', [f.addr(3)]));
    expect(f.launcherEvents(receipt)[0]?.args).toEqual({ previous: f.addr(0), current: f.addr(3) });
    expect(
      await f.client.readContract({ address: f.launcher(), abi: TokenLauncherAbi, functionName: 'platform' }),
    ).toBe(f.addr(3));
    await f.tracedRevert(
      0,
      f.launcherCall('launch', [keyOf('p'), NAME, SYMBOL, f.addr(0), G]),
      'LauncherUnauthorized',
      [f.addr(0)],
    );
    await f.launch({ key: keyOf('p'), from: 3 });
  });

  it('setFeeRecipient: owner only, not zero', async () => {
    await f.tracedRevert(2, f.launcherCall('setFeeRecipient', [f.addr(2)]), 'OwnableUnauthorizedAccount', [f.addr(2)]);
    await f.tracedRevert(0, f.launcherCall('setFeeRecipient', [ZERO]), 'LauncherInvalidAddress', [ZERO]);
    const receipt = await f.write(0, f.launcherCall('setFeeRecipient', [f.addr(4)]));
    expect(f.launcherEvents(receipt)[0]?.args).toEqual({ previous: f.addr(0), current: f.addr(4) });
    expect(
      await f.client.readContract({ address: f.launcher(), abi: TokenLauncherAbi, functionName: 'feeRecipient' }),
    ).toBe(f.addr(4));
  });

  it("the hook's setFeeRecipient: owner only, not zero", async () => {
    const hookCall = (functionName: string, args: readonly unknown[]): Call => ({
      address: f.feeHook(),
      abi: PlatformFeeHookAbi as Abi,
      functionName,
      args,
    });
    await f.tracedRevert(1, hookCall('setFeeRecipient', [f.addr(1)]), 'OwnableUnauthorizedAccount', [f.addr(1)]);
    await f.tracedRevert(0, hookCall('setFeeRecipient', [ZERO]), 'HookInvalidAddress', [ZERO]);
    const receipt = await f.write(0, hookCall('setFeeRecipient', [f.addr(6)]));
    const events = parseEventLogs({ abi: PlatformFeeHookAbi, logs: receipt.logs });
    expect(events[0]?.args).toEqual({ previous: f.addr(0), current: f.addr(6) });
    expect(
      await f.client.readContract({ address: f.feeHook(), abi: PlatformFeeHookAbi, functionName: 'feeRecipient' }),
    ).toBe(f.addr(6));
  });

  it('the deployment wires launcher, hook and pool manager together', async () => {
    const read = (address: Address, abi: Abi, functionName: string) =>
      f.client.readContract({ address, abi, functionName } as any);
    expect(await read(f.launcher(), TokenLauncherAbi as Abi, 'poolManager')).toBe(f.poolManager());
    expect(await read(f.launcher(), TokenLauncherAbi as Abi, 'usdc')).toBe(f.usdcToken);
    expect(await read(f.launcher(), TokenLauncherAbi as Abi, 'owner')).toBe(f.addr(0));
    expect(await read(f.launcher(), TokenLauncherAbi as Abi, 'platform')).toBe(f.addr(0));
    expect(await read(f.launcher(), TokenLauncherAbi as Abi, 'feeRecipient')).toBe(f.addr(0));
    expect(await read(f.feeHook(), PlatformFeeHookAbi as Abi, 'launcher')).toBe(f.launcher());
    expect(await read(f.feeHook(), PlatformFeeHookAbi as Abi, 'poolManager')).toBe(f.poolManager());
    expect(await read(f.feeHook(), PlatformFeeHookAbi as Abi, 'usdc')).toBe(f.usdcToken);
    expect(await read(f.feeHook(), PlatformFeeHookAbi as Abi, 'feeRecipient')).toBe(f.addr(0));
    expect(await read(f.feeHook(), PlatformFeeHookAbi as Abi, 'owner')).toBe(f.addr(0));
    expect(await read(f.feeHook(), PlatformFeeHookAbi as Abi, 'FEE_BIPS')).toBe(250n);
    // v4 reads the hook's permissions from its address: beforeInitialize, before add/remove liquidity, afterSwap
    // and afterSwapReturnDelta (bits 13, 11, 9, 6, 2)
    expect(BigInt(f.feeHook()) & 0x3fffn).toBe((1n << 13n) | (1n << 11n) | (1n << 9n) | (1n << 6n) | (1n << 2n));
  });
});
