// TokenLauncher and PlatformFeeHook, the graduated pool's protections: nobody but the launcher can create the pool
// with the fee hook (so nobody can pre-create it to grief graduation; a hookless pool of the same pair is harmless),
// nobody can add or remove liquidity (contracts/test/LiquidityPoker.sol), a third-party router swapping in the pool
// directly pays the same 2.5% fee (contracts/test/SimpleSwapper.sol), the hook's callbacks answer only the pool
// manager, fees accrue as the hook's ERC-6909 claims that only the fee recipient withdraws, and a recipient that USDC
// blacklists blocks no swap. Graduation itself is in token-launcher.graduation.test.ts.

import {
  BlacklistUSDCAbi,
  CompanyTokenAbi,
  LiquidityPokerAbi,
  MockUSDCAbi,
  PlatformFeeHookAbi,
  PoolManagerAbi,
  SimpleSwapperAbi,
  TokenLauncherAbi,
} from '@ai-economy/shared/abis';
import {
  type Abi,
  type Address,
  decodeErrorResult,
  getAbiItem,
  getAddress,
  type Hex,
  maxUint256,
  parseEventLogs,
  toFunctionSelector,
} from 'viem';
import { describe, expect, it } from 'vitest';
import { loadArtifact } from '../../src/chain/artifacts.ts';
import { forgetNonces } from '../../src/chain/client.ts';
import { deployFeeHook, feeHookDeployment } from '../../src/chain/deploy-steps.ts';
import { seededIntegers } from '../helpers/random.ts';
import { expectRevert } from '../helpers/revert.ts';
import { usdc } from './fixture.ts';
import {
  type Call,
  G,
  hookFee,
  keyOf,
  MAX_TICK,
  MIN_TICK,
  NAME,
  type PoolKey,
  poolIdOf,
  SYMBOL,
  useTokenChain,
} from './token-fixture.ts';

// The exact curve model of this file has no fee: the curve fee (1% by default) is tested in
// token-launcher.fee.test.ts.
const f = useTokenChain({ curveFeeBps: 0 });

const HOOK_CALL_FAILED = toFunctionSelector('HookCallFailed()');
const hookSelector = (name: 'beforeInitialize' | 'beforeAddLiquidity' | 'beforeRemoveLiquidity') =>
  toFunctionSelector(getAbiItem({ abi: PlatformFeeHookAbi, name }) as any);

// ---------------------------------------------------------------- chain helpers

/** A v4 WrappedError from the fee hook: the hook function that refused and its own error. */
async function expectHookRefusal(
  i: number,
  call: Call,
  hookFunction: Parameters<typeof hookSelector>[0],
  error: string,
  errorArgs: readonly unknown[],
) {
  const { args } = await f.tracedRevert(i, call, 'WrappedError');
  const [target, selector, reason, details] = args as [Address, Hex, Hex, Hex];
  expect(target).toBe(f.feeHook());
  expect(selector).toBe(hookSelector(hookFunction));
  expect(details).toBe(HOOK_CALL_FAILED);
  const inner = decodeErrorResult({ abi: PlatformFeeHookAbi, data: reason });
  expect(inner.errorName).toBe(error);
  expect(inner.args ?? []).toEqual(errorArgs);
}
const hookCall = (functionName: string, args: readonly unknown[]): Call => ({
  address: f.feeHook(),
  abi: PlatformFeeHookAbi as Abi,
  functionName,
  args,
});
/** Gives `to` (the liquidity poker) 1e23 of trader 1's tokens and `usdcAmount` of its USDC. */
async function fund(to: Address, token: Address, usdcAmount: bigint) {
  await f.send(
    f
      .wallet(1)
      .writeContract({ address: token, abi: CompanyTokenAbi, functionName: 'transfer', args: [to, 10n ** 23n] }),
  );
  await f.send(
    f
      .wallet(1)
      .writeContract({ address: f.usdcToken, abi: MockUSDCAbi, functionName: 'transfer', args: [to, usdcAmount] }),
  );
}

// ---------------------------------------------------------------- the pool cannot be pre-empted

describe('pool creation', () => {
  it('nobody else can initialise the pool with the fee hook before graduation, and graduation still works', async () => {
    const token = await f.launchSide('token0');
    const key = await f.poolKeyOf(token);
    const initialize = (k: PoolKey): Call => ({
      address: f.poolManager(),
      abi: PoolManagerAbi as Abi,
      functionName: 'initialize',
      args: [k, 1n << 96n],
    });
    await expectHookRefusal(2, initialize(key), 'beforeInitialize', 'HookOnlyLauncher', [f.addr(2)]);
    // any other pool with the hook too (another fee and spacing; the hook's own owner included)
    await expectHookRefusal(
      0,
      initialize({ ...key, fee: 3000, tickSpacing: 10 }),
      'beforeInitialize',
      'HookOnlyLauncher',
      [f.addr(0)],
    );
    await f.ready(1, token);
    const c = await f.curveOf(token);
    await f.buy(1, token, c.graduationVirtualUsdc - c.virtualUsdc);
    expect(await f.graduated(token)).toBe(true);
  });

  it('a hookless pool of the same pair can be created and filled by anyone, and does not disturb graduation', async () => {
    const token = await f.launchSide('token1');
    const key = await f.poolKeyOf(token);
    const plain = { ...key, fee: 3000, hooks: '0x0000000000000000000000000000000000000000' as Address };
    // at a silly price: 100x the curve's
    await f.write(2, {
      address: f.poolManager(),
      abi: PoolManagerAbi as Abi,
      functionName: 'initialize',
      args: [plain, 1n << 100n],
    });
    // fill it with the test poker (this also shows the poker itself works; the fee-hook pool refuses it below)
    const poker = await deploy('LiquidityPoker', LiquidityPokerAbi, [f.poolManager()]);
    await f.ready(1, token);
    await f.buy(1, token, usdc(1_000));
    await fund(poker, token, usdc(100_000));
    await f.write(2, {
      address: poker,
      abi: LiquidityPokerAbi as Abi,
      functionName: 'poke',
      args: [plain, -600, 600, 10n ** 15n, `0x${'0'.repeat(64)}`],
    });
    // graduation into the real pool, with an oversized buy quoted exactly
    const c = await f.curveOf(token);
    const amount = c.graduationVirtualUsdc - c.virtualUsdc + usdc(3_000);
    const quote = await f.quoteBuy(token, amount);
    const before = await f.tokensOf(token, f.addr(1));
    const receipt = await f.buy(1, token, amount, quote);
    expect((await f.tokensOf(token, f.addr(1))) - before).toBe(quote);
    const g = f.launcherEvents(receipt)[1]!.args as { poolId: Hex };
    expect(g.poolId).toBe(poolIdOf(key));
    expect(g.poolId).not.toBe(poolIdOf(plain));
  });
});

async function deploy(name: string, abi: Abi, args: readonly unknown[]): Promise<Address> {
  const hash = await f.wallet(0).deployContract({ abi, bytecode: loadArtifact(name).bytecode, args } as any);
  return getAddress((await f.send(Promise.resolve(hash))).contractAddress!);
}

/**
 * A launcher and its fee hook on a USDC with a blacklist (contracts/test/BlacklistUSDC.sol), owned by account 0,
 * which is also the launcher's platform and fee recipient; the hook's fee recipient is account 8.
 */
async function blacklistLauncher() {
  const blUsdc = await deploy('BlacklistUSDC', BlacklistUSDCAbi, [f.addr(0)]);
  const launcher = await deploy('TokenLauncher', TokenLauncherAbi, [
    blUsdc,
    f.poolManager(),
    f.addr(0),
    f.addr(0),
    f.addr(0),
  ]);
  const hook = feeHookDeployment({
    poolManager: f.poolManager(),
    launcher,
    usdc: blUsdc,
    feeRecipient: f.addr(8),
    owner: f.addr(0),
  });
  forgetNonces(await f.client.getChainId());
  await deployFeeHook(f.chain.chain, hook);
  const at =
    (address: Address, abi: Abi) =>
    (functionName: string, args: readonly unknown[]): Call => ({
      address,
      abi,
      functionName,
      args,
    });
  const onLauncher = at(launcher, TokenLauncherAbi as Abi);
  await f.write(0, onLauncher('setFeeHook', [hook.address]));
  return {
    blUsdc,
    launcher,
    hook,
    at,
    onLauncher,
    onUsdc: at(blUsdc, BlacklistUSDCAbi as Abi),
    onHook: at(hook.address, PlatformFeeHookAbi as Abi),
  };
}

// ---------------------------------------------------------------- locked liquidity

describe('liquidity', () => {
  it('nobody can add to or remove from the graduated pool, and the launcher has no way to remove it', async () => {
    const { token, receipt } = await f.launchAndGraduate('token0');
    const { poolId, liquidity } = f.launcherEvents(receipt)[1]!.args as { poolId: Hex; liquidity: bigint };
    const key = await f.poolKeyOf(token);
    const poker = await deploy('LiquidityPoker', LiquidityPokerAbi, [f.poolManager()]);
    // the poker has funds of both currencies, so only the hook can be what stops it
    await fund(poker, token, usdc(10_000));
    const poke = (delta: bigint, lower = MIN_TICK, upper = MAX_TICK): Call => ({
      address: poker,
      abi: LiquidityPokerAbi as Abi,
      functionName: 'poke',
      args: [key, lower, upper, delta, `0x${'0'.repeat(64)}`],
    });
    await expectHookRefusal(2, poke(10n ** 12n), 'beforeAddLiquidity', 'HookOnlyLauncher', [poker]);
    await expectHookRefusal(2, poke(10n ** 12n, -600, 600), 'beforeAddLiquidity', 'HookOnlyLauncher', [poker]);
    await expectHookRefusal(2, poke(-1n), 'beforeRemoveLiquidity', 'HookLiquidityLocked', []);
    await expectHookRefusal(2, poke(-liquidity), 'beforeRemoveLiquidity', 'HookLiquidityLocked', []);
    expect((await f.poolState(poolId)).liquidity).toBe(liquidity);

    // The launcher's position is keyed by the launcher's address, so only the launcher could ever touch it, and
    // none of its functions removes liquidity (its unlock callback only accepts the pool manager). The one
    // withdrawal it has sends the fee recipient the curve fees it accrued, which are USDC it holds, not the pool's.
    const names = TokenLauncherAbi.filter((x) => x.type === 'function').map((x) => x.name);
    expect(names.filter((n) => /remove|withdraw|decrease|collect|burn|rescue|sweep|skim|migrate/i.test(n))).toEqual([
      'withdrawCurveFees',
    ]);
    await f.tracedRevert(2, f.launcherCall('unlockCallback', ['0x']), 'LauncherUnauthorized', [f.addr(2)]);
  });
});

// ---------------------------------------------------------------- a third-party router

describe('swaps outside the launcher', () => {
  it.each([
    'token0',
    'token1',
  ] as const)('a router swapping directly in the pool (company token as %s) pays the hook fee and is named as the trader', async (side) => {
    const { token } = await f.launchAndGraduate(side);
    const swapper = await deploy('SimpleSwapper', SimpleSwapperAbi, [f.poolManager()]);
    const key = await f.poolKeyOf(token);
    await f.ready(3, token, swapper);
    const tokenIs0 = side === 'token0';
    const swap = (isBuy: boolean, amountSpecified: bigint): Call => ({
      address: swapper,
      abi: SimpleSwapperAbi as Abi,
      functionName: 'swap',
      // buying the token: USDC in; zeroForOne when USDC is currency0
      args: [key, isBuy !== tokenIs0, amountSpecified, f.addr(4)],
    });
    const balances = () =>
      Promise.all([
        f.usdcOf(f.addr(3)),
        f.tokensOf(token, f.addr(3)),
        f.usdcOf(f.addr(4)),
        f.tokensOf(token, f.addr(4)),
        f.feesAccrued(f.usdcToken),
        f.feesAccrued(token),
      ]);

    // exact input, buying: the output is the launcher's quote, the fee is in tokens
    let quote = await f.quoteBuy(token, usdc(700));
    let before = await balances();
    let receipt = await f.write(3, swap(true, -usdc(700)));
    let after = await balances();
    let trade = f.hookEvents(receipt)[0]!.args as { fee: bigint; tokenAmount: bigint };
    expect(f.hookEvents(receipt)[0]?.args).toMatchObject({
      token,
      trader: swapper,
      isBuy: true,
      usdcAmount: usdc(700),
      tokenAmount: quote,
      feeInUsdc: false,
    });
    expect(trade.fee).toBe(hookFee(quote + trade.fee));
    expect(before[0] - after[0]).toBe(usdc(700));
    expect(after[3] - before[3]).toBe(quote);
    expect(after[5] - before[5]).toBe(trade.fee);

    // exact input, selling (trader 4 received the tokens; trader 3 sells some of its own first buy)
    await f.ready(3, token);
    await f.buy(3, token, usdc(50));
    const held = await f.tokensOf(token, f.addr(3));
    quote = await f.quoteSell(token, held);
    before = await balances();
    receipt = await f.write(3, swap(false, -held));
    after = await balances();
    trade = f.hookEvents(receipt)[0]!.args as { fee: bigint; tokenAmount: bigint };
    expect(f.hookEvents(receipt)[0]?.args).toMatchObject({
      trader: swapper,
      isBuy: false,
      usdcAmount: quote,
      tokenAmount: held,
      feeInUsdc: true,
    });
    expect(trade.fee).toBe(hookFee(quote + trade.fee));
    expect(after[2] - before[2]).toBe(quote);
    expect(after[4] - before[4]).toBe(trade.fee);

    // exact output, buying 1,000 tokens: the fee is 2.5% of the input, on top
    const want = 1_000n * 10n ** 18n;
    before = await balances();
    receipt = await f.write(3, swap(true, want));
    after = await balances();
    const out = f.hookEvents(receipt)[0]!.args as { fee: bigint; usdcAmount: bigint };
    expect(f.hookEvents(receipt)[0]?.args).toMatchObject({
      trader: swapper,
      isBuy: true,
      tokenAmount: want,
      feeInUsdc: true,
    });
    expect(out.fee).toBe(hookFee(out.usdcAmount - out.fee));
    expect(out.fee).toBeGreaterThan(0n);
    expect(after[3] - before[3]).toBe(want);
    expect(before[0] - after[0]).toBe(out.usdcAmount);
    expect(after[4] - before[4]).toBe(out.fee);
  });
});

// ---------------------------------------------------------------- the hook's access rules

describe('fee hook', () => {
  it('only the pool manager may call its hook functions', async () => {
    const token = await f.launchSide('token0');
    const key = await f.poolKeyOf(token);
    const call = (functionName: string, args: readonly unknown[]) =>
      f.client.simulateContract({
        address: f.feeHook(),
        abi: PlatformFeeHookAbi,
        functionName,
        args,
        account: f.wallet(2).account,
      } as any);
    const liq = { tickLower: MIN_TICK, tickUpper: MAX_TICK, liquidityDelta: 1n, salt: `0x${'0'.repeat(64)}` };
    const swapParams = { zeroForOne: true, amountSpecified: -1n, sqrtPriceLimitX96: 4295128740n };
    await expectRevert(call('beforeInitialize', [f.launcher(), key, 1n << 96n]), 'HookOnlyPoolManager', [f.addr(2)]);
    await expectRevert(call('beforeAddLiquidity', [f.launcher(), key, liq, '0x']), 'HookOnlyPoolManager', [f.addr(2)]);
    await expectRevert(call('afterSwap', [f.launcher(), key, swapParams, 0n, '0x']), 'HookOnlyPoolManager', [
      f.addr(2),
    ]);
    // removing is refused to everyone, the pool manager included
    await expectRevert(call('beforeRemoveLiquidity', [f.launcher(), key, liq, '0x']), 'HookLiquidityLocked', []);
    // the callbacks it has no permission bit for are never called and revert if they are
    await expectRevert(call('beforeSwap', [f.launcher(), key, swapParams, '0x']), 'HookNotImplemented', []);
    await expectRevert(call('afterInitialize', [f.launcher(), key, 1n << 96n, 0]), 'HookNotImplemented', []);
  });

  it('pool fees accrue as claims that only the fee recipient withdraws; a new launcher fee recipient withdraws the graduation dust', async () => {
    await f.write(0, {
      address: f.launcher(),
      abi: TokenLauncherAbi as Abi,
      functionName: 'setFeeRecipient',
      args: [f.addr(7)],
    });
    await f.write(0, hookCall('setFeeRecipient', [f.addr(8)]));
    const before7 = await f.usdcOf(f.addr(7));
    const { token, receipt } = await f.launchAndGraduate('token0');
    const dust = (f.launcherEvents(receipt)[1]!.args as { usdcToFees: bigint }).usdcToFees;
    // No transfer at graduation: the dust joins the accrued curve fees (this file's curve fee is 0).
    expect(await f.usdcOf(f.addr(7))).toBe(before7);
    expect(await f.curveFeesAccrued()).toBe(dust);
    await f.write(7, f.launcherCall('withdrawCurveFees', [f.addr(7)]));
    expect((await f.usdcOf(f.addr(7))) - before7).toBe(dust);
    const accrued = await f.feesAccrued(token);
    const buyReceipt = await f.buy(1, token, usdc(100));
    const fee = (f.hookEvents(buyReceipt)[0]!.args as { fee: bigint }).fee;
    // The swap sent nobody the fee: it is an ERC-6909 claim of the hook in the PoolManager.
    expect((await f.feesAccrued(token)) - accrued).toBe(fee);
    expect(await f.tokensOf(token, f.addr(8))).toBe(0n);
    // Only the current fee recipient withdraws, to any address, at most what accrued.
    const all = await f.feesAccrued(token);
    await f.tracedRevert(0, hookCall('withdrawFees', [token, f.addr(0), all]), 'HookUnauthorized', [f.addr(0)]);
    await f.tracedRevert(8, hookCall('withdrawFees', [token, f.addr(8), all + 1n]), 'HookInsufficientFees', [
      all + 1n,
      all,
    ]);
    const withdrawal = await f.write(8, hookCall('withdrawFees', [token, f.addr(8), all]));
    expect(f.hookEvents(withdrawal)[0]?.args).toEqual({ currency: token, to: f.addr(8), amount: all });
    expect(await f.tokensOf(token, f.addr(8))).toBe(all);
    expect(await f.feesAccrued(token)).toBe(0n);
  });

  it('no graduation can be blocked by the fee recipient: USDC blacklists it, and every threshold still graduates', async () => {
    // The attack: graduation pushed the USDC dust to the launcher's fee recipient with a live transfer, so with the
    // recipient blacklisted every graduating buy reverted (seen at six thresholds from 100 to 1,000,001 USDC). The
    // dust now joins the accrued fees. Each threshold, with buys of random sizes (a seeded walk, replayable), from
    // the first buy to the one that graduates and spends the rest in the pool.
    const { blUsdc, launcher, onLauncher, onUsdc } = await blacklistLauncher();
    await f.write(0, onUsdc('setBlacklisted', [f.addr(0), true])); // the launcher's fee recipient
    const next = seededIntegers(2604);
    const thresholds = [100n, 101n, 333n, 1_000n, 12_345n, 1_000_001n].map((w) => w * 1_000_000n);
    thresholds.push(100_000_000n + BigInt(next(1_000_000_000)) * 1000n + BigInt(next(1000)));
    await f.write(0, onUsdc('mint', [f.addr(1), 10n ** 16n]));
    await f.write(1, onUsdc('approve', [launcher, maxUint256]));
    for (const [i, threshold] of thresholds.entries()) {
      const key = keyOf(`blacklisted-recipient-${i}`);
      await f.write(0, onLauncher('launch', [key, NAME, SYMBOL, f.addr(0), threshold]));
      const token = await f.client.readContract({
        address: launcher,
        abi: TokenLauncherAbi,
        functionName: 'tokenOfCompany',
        args: [key],
      });
      const read = <T>(functionName: string, args: readonly unknown[] = []) =>
        f.client.readContract({ address: launcher, abi: TokenLauncherAbi as Abi, functionName, args }) as Promise<T>;
      // a few curve buys of random sizes short of graduation, then one past it
      for (let b = 0; b < 3; b++) {
        const curve = await read<{ graduationVirtualUsdc: bigint; virtualUsdc: bigint }>('curveOf', [token]);
        const left = curve.graduationVirtualUsdc - curve.virtualUsdc;
        const size = (left * BigInt(1 + next(300))) / 1000n;
        if (size > 0n) await f.write(1, onLauncher('buy', [token, size, 0n, maxUint256]));
      }
      const accruedBefore = await read<bigint>('curveFeesAccrued');
      const extra = BigInt(next(1_000_000)) * 1000n;
      const receipt = await f.write(1, onLauncher('buy', [token, threshold + extra, 0n, maxUint256]));
      expect(receipt.status).toBe('success');
      expect(await read<boolean>('graduated', [token])).toBe(true);
      const grad = parseEventLogs({ abi: TokenLauncherAbi, logs: receipt.logs, eventName: 'Graduated' })[0]!.args;
      const trade = parseEventLogs({ abi: TokenLauncherAbi, logs: receipt.logs, eventName: 'CurveTrade' })[0]!.args;
      // this launcher has the default 1% curve fee: the graduating buy's fee and the dust both accrue
      expect((await read<bigint>('curveFeesAccrued')) - accruedBefore).toBe(trade.fee + grad.usdcToFees);
    }
    // The blacklisted recipient cannot take USDC itself; it withdraws everything accrued to another address.
    const accrued = (await f.client.readContract({
      address: launcher,
      abi: TokenLauncherAbi,
      functionName: 'curveFeesAccrued',
    })) as bigint;
    await f.write(0, onLauncher('withdrawCurveFees', [f.addr(9)]));
    expect(
      await f.client.readContract({
        address: blUsdc,
        abi: BlacklistUSDCAbi,
        functionName: 'balanceOf',
        args: [f.addr(9)],
      }),
    ).toBe(accrued);
  }, 120_000);

  it('a fee recipient that USDC blacklists blocks no swap, and its fees can be withdrawn elsewhere', async () => {
    // The attack: with fees paid by a live transfer, USDC blacklisting the recipient made every swap whose fee is in
    // USDC (every sale) revert. A launcher and hook on a USDC with a blacklist (contracts/test/BlacklistUSDC.sol):
    const { blUsdc, launcher, hook, at, onLauncher, onUsdc, onHook } = await blacklistLauncher();
    await f.write(0, onLauncher('launch', [keyOf('blacklist'), NAME, SYMBOL, f.addr(0), G]));
    const token = getAddress(
      (
        await f.client.readContract({
          address: launcher,
          abi: TokenLauncherAbi,
          functionName: 'tokenOfCompany',
          args: [keyOf('blacklist')],
        })
      ).toString(),
    );
    await f.write(0, onUsdc('mint', [f.addr(1), usdc(50_000)]));
    await f.write(1, onUsdc('approve', [launcher, maxUint256]));
    await f.write(1, at(token, CompanyTokenAbi as Abi)('approve', [launcher, maxUint256]));
    // a buy past the threshold graduates the token; the rest of it buys in the pool
    await f.write(1, onLauncher('buy', [token, G * 2n, 0n, maxUint256]));
    expect(
      await f.client.readContract({
        address: launcher,
        abi: TokenLauncherAbi,
        functionName: 'graduated',
        args: [token],
      }),
    ).toBe(true);

    await f.write(0, onUsdc('setBlacklisted', [f.addr(8), true]));
    // a sale in the pool pays its fee in USDC: it goes through
    const held = await f.tokensOf(token, f.addr(1));
    const sale = await f.write(1, onLauncher('sell', [token, held / 2n, 0n, maxUint256]));
    const trade = parseEventLogs({ abi: PlatformFeeHookAbi, logs: sale.logs, eventName: 'PoolTrade' })[0]!.args;
    expect(trade).toMatchObject({ isBuy: false, feeInUsdc: true });
    expect(trade.fee).toBeGreaterThan(0n);
    const feesAccrued = () =>
      f.client.readContract({
        address: hook.address,
        abi: PlatformFeeHookAbi,
        functionName: 'feesAccrued',
        args: [blUsdc],
      });
    const accrued = await feesAccrued();
    expect(accrued).toBeGreaterThanOrEqual(trade.fee);
    // the blacklisted recipient cannot take USDC itself, but sends its fees to another address of its own
    const hash = await f.wallet(8).writeContract({
      ...onHook('withdrawFees', [blUsdc, f.addr(8), accrued]),
      gas: 1_000_000n,
    } as any);
    expect((await f.client.waitForTransactionReceipt({ hash })).status).toBe('reverted');
    await f.write(8, onHook('withdrawFees', [blUsdc, f.addr(9), accrued]));
    const balance = await f.client.readContract({
      address: blUsdc,
      abi: BlacklistUSDCAbi,
      functionName: 'balanceOf',
      args: [f.addr(9)],
    });
    expect(balance).toBe(accrued);
    expect(await feesAccrued()).toBe(0n);
  }, 120_000);
});
