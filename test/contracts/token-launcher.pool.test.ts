// TokenLauncher and PlatformFeeHook, the graduated pool's protections: nobody but the launcher can create the pool
// with the fee hook (so nobody can pre-create it to grief graduation; a hookless pool of the same pair is harmless),
// nobody can add or remove liquidity (contracts/test/LiquidityPoker.sol), a third-party router swapping in the pool
// directly pays the same 2.5% fee (contracts/test/SimpleSwapper.sol), the hook's callbacks answer only the pool
// manager, and a changed fee recipient receives the fees. Graduation itself is in token-launcher.graduation.test.ts.
import {
  type Abi,
  type Address,
  decodeErrorResult,
  encodeAbiParameters,
  encodeDeployData,
  getAbiItem,
  getAddress,
  getContractAddress,
  type Hex,
  hexToBigInt,
  isAddressEqual,
  keccak256,
  maxUint256,
  numberToHex,
  parseAbi,
  parseEventLogs,
  type TransactionReceipt,
  toFunctionSelector,
  toHex,
} from 'viem';
import { describe, expect, it } from 'vitest';
import { loadArtifact } from '../../src/chain/artifacts.ts';
import {
  CompanyTokenAbi,
  LiquidityPokerAbi,
  MockUSDCAbi,
  PlatformFeeHookAbi,
  PoolManagerAbi,
  SimpleSwapperAbi,
  TokenLauncherAbi,
} from '../../src/chain/generated/abis.ts';
import { expectRevert } from '../helpers/revert.ts';
import { usdc, useCardChain } from './fixture.ts';

const f = useCardChain();
const launcher = () => f.chain.chain.contracts.tokenLauncher!;
const feeHook = () => f.chain.chain.contracts.feeHook!;
const poolManager = () => f.chain.chain.contracts.poolManager!;

const SUPPLY = 10n ** 24n;
const G = usdc(10_000);
const MIN_TICK = -887_220;
const MAX_TICK = 887_220;
/** The hook's fee on a swap's unspecified amount: 2.5%, rounded down. */
const hookFee = (gross: bigint) => (gross * 250n) / 10_000n;

const V4_ERRORS = parseAbi([
  'error WrappedError(address target, bytes4 selector, bytes reason, bytes details)',
  'error HookCallFailed()',
]);
const ERRORS = [
  ...TokenLauncherAbi,
  ...PlatformFeeHookAbi,
  ...PoolManagerAbi,
  ...CompanyTokenAbi,
  ...MockUSDCAbi,
  ...V4_ERRORS,
].filter((item) => item.type === 'error') as Abi;
const HOOK_CALL_FAILED = toFunctionSelector('HookCallFailed()');
const hookSelector = (name: 'beforeInitialize' | 'beforeAddLiquidity' | 'beforeRemoveLiquidity') =>
  toFunctionSelector(getAbiItem({ abi: PlatformFeeHookAbi, name }) as any);

// ---------------------------------------------------------------- chain helpers

interface Call {
  address: Address;
  abi: Abi;
  functionName: string;
  args?: readonly unknown[];
}
const launcherCall = (functionName: string, args: readonly unknown[]): Call => ({
  address: launcher(),
  abi: TokenLauncherAbi as Abi,
  functionName,
  args,
});
const write = (i: number, call: Call) =>
  f.send(f.wallet(i).writeContract({ ...call, args: call.args ?? [], gas: 3_000_000n } as any));
/** Sends `call` with a fixed gas limit, expects a mined revert, and decodes that transaction's revert data. */
async function minedRevert(i: number, call: Call, errorName: string, args?: readonly unknown[]) {
  const hash = await f.wallet(i).writeContract({ ...call, args: call.args ?? [], gas: 3_000_000n } as any);
  const receipt = await f.client.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe('reverted');
  const trace = (await f.client.request({
    method: 'debug_traceTransaction',
    params: [hash, { tracer: 'callTracer' }],
  } as any)) as { output?: Hex };
  const decoded = decodeErrorResult({ abi: ERRORS, data: trace.output ?? '0x' });
  expect(decoded.errorName).toBe(errorName);
  if (args) expect(decoded.args ?? []).toEqual(args);
  return { receipt, args: (decoded.args ?? []) as readonly unknown[] };
}
/** A v4 WrappedError from the fee hook: the hook function that refused and its own error. */
async function expectHookRefusal(
  i: number,
  call: Call,
  hookFunction: Parameters<typeof hookSelector>[0],
  error: string,
  errorArgs: readonly unknown[],
) {
  const { args } = await minedRevert(i, call, 'WrappedError');
  const [target, selector, reason, details] = args as [Address, Hex, Hex, Hex];
  expect(target).toBe(feeHook());
  expect(selector).toBe(hookSelector(hookFunction));
  expect(details).toBe(HOOK_CALL_FAILED);
  const inner = decodeErrorResult({ abi: PlatformFeeHookAbi, data: reason });
  expect(inner.errorName).toBe(error);
  expect(inner.args ?? []).toEqual(errorArgs);
}

const NAME = 'Acme Robotics';
const SYMBOL = 'ACME';
function predictToken(key: Hex): Address {
  const bytecode = encodeDeployData({
    abi: CompanyTokenAbi,
    bytecode: loadArtifact('CompanyToken').bytecode,
    args: [NAME, SYMBOL, SUPPLY, launcher()],
  });
  return getContractAddress({ from: launcher(), opcode: 'CREATE2', salt: key, bytecode });
}
type Side = 'token0' | 'token1';
const keys = new Map<Side, Hex>();
/** The first company key whose token sorts before (token0) or after (token1) USDC. */
function keyFor(side: Side): Hex {
  if (!keys.has(side)) {
    for (let n = 0; ; n++) {
      const key = keccak256(toHex(`company-${n}`));
      const isToken0 = hexToBigInt(predictToken(key)) < hexToBigInt(f.usdcToken);
      if (isToken0 === (side === 'token0')) {
        keys.set(side, key);
        break;
      }
    }
  }
  return keys.get(side)!;
}
async function launch(side: Side, threshold = G): Promise<Address> {
  const key = keyFor(side);
  await write(0, launcherCall('launch', [key, NAME, SYMBOL, f.addr(0), threshold]));
  return predictToken(key);
}
async function ready(i: number, token: Address, spender = launcher()) {
  const w = f.wallet(i);
  await f.send(
    w.writeContract({ address: f.usdcToken, abi: MockUSDCAbi, functionName: 'approve', args: [spender, maxUint256] }),
  );
  await f.send(
    w.writeContract({ address: token, abi: CompanyTokenAbi, functionName: 'approve', args: [spender, maxUint256] }),
  );
}
const buy = (i: number, token: Address, usdcIn: bigint, minOut = 0n) =>
  write(i, launcherCall('buy', [token, usdcIn, minOut, maxUint256]));
const tokensOf = (token: Address, account: Address) =>
  f.client.readContract({ address: token, abi: CompanyTokenAbi, functionName: 'balanceOf', args: [account] });
const curveOf = (token: Address) =>
  f.client.readContract({ address: launcher(), abi: TokenLauncherAbi, functionName: 'curveOf', args: [token] });
const poolKeyOf = (token: Address) =>
  f.client.readContract({ address: launcher(), abi: TokenLauncherAbi, functionName: 'poolKeyOf', args: [token] });
const quoteBuy = (token: Address, amount: bigint) =>
  f.client.readContract({
    address: launcher(),
    abi: TokenLauncherAbi,
    functionName: 'quoteBuy',
    args: [token, amount],
  });
const quoteSell = (token: Address, amount: bigint) =>
  f.client.readContract({
    address: launcher(),
    abi: TokenLauncherAbi,
    functionName: 'quoteSell',
    args: [token, amount],
  });
const graduated = (token: Address) =>
  f.client.readContract({ address: launcher(), abi: TokenLauncherAbi, functionName: 'graduated', args: [token] });
const eventsOf =
  <A extends Abi>(abi: A, address: () => Address) =>
  (receipt: TransactionReceipt) =>
    parseEventLogs({ abi, logs: receipt.logs.filter((l) => isAddressEqual(l.address, address())) });
const launcherEvents = eventsOf(TokenLauncherAbi, launcher);
const hookEvents = eventsOf(PlatformFeeHookAbi, feeHook);

type PoolKey = Awaited<ReturnType<typeof poolKeyOf>>;
const poolIdOf = (key: PoolKey) =>
  keccak256(
    encodeAbiParameters(
      [{ type: 'address' }, { type: 'address' }, { type: 'uint24' }, { type: 'int24' }, { type: 'address' }],
      [key.currency0, key.currency1, key.fee, key.tickSpacing, key.hooks],
    ),
  );
/** sqrtPriceX96 and liquidity of a pool, read from the PoolManager's storage (StateLibrary's layout). */
async function poolState(poolId: Hex) {
  const base = hexToBigInt(keccak256(encodeAbiParameters([{ type: 'bytes32' }, { type: 'uint256' }], [poolId, 6n])));
  const read = (slot: bigint) =>
    f.client.readContract({
      address: poolManager(),
      abi: PoolManagerAbi,
      functionName: 'extsload',
      args: [numberToHex(slot, { size: 32 })],
    });
  const [slot0, liquidity] = await Promise.all([read(base), read(base + 3n)]);
  return { sqrtPriceX96: hexToBigInt(slot0) & ((1n << 160n) - 1n), liquidity: hexToBigInt(liquidity) };
}
/** Launches the token of `side`, lets trader 1 buy exactly to graduation; returns the token and that receipt. */
async function launchAndGraduate(side: Side, trader = 1) {
  const token = await launch(side);
  await ready(trader, token);
  const c = await curveOf(token);
  const receipt = await buy(trader, token, c.graduationVirtualUsdc - c.virtualUsdc);
  expect(await graduated(token)).toBe(true);
  return { token, receipt };
}

// ---------------------------------------------------------------- the pool cannot be pre-empted

describe('pool creation', () => {
  it('nobody else can initialise the pool with the fee hook before graduation, and graduation still works', async () => {
    const token = await launch('token0');
    const key = await poolKeyOf(token);
    const initialize = (k: PoolKey): Call => ({
      address: poolManager(),
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
    await ready(1, token);
    const c = await curveOf(token);
    await buy(1, token, c.graduationVirtualUsdc - c.virtualUsdc);
    expect(await graduated(token)).toBe(true);
  });

  it('a hookless pool of the same pair can be created and filled by anyone, and does not disturb graduation', async () => {
    const token = await launch('token1');
    const key = await poolKeyOf(token);
    const plain = { ...key, fee: 3000, hooks: '0x0000000000000000000000000000000000000000' as Address };
    // at a silly price: 100x the curve's
    await write(2, {
      address: poolManager(),
      abi: PoolManagerAbi as Abi,
      functionName: 'initialize',
      args: [plain, 1n << 100n],
    });
    // fill it with the test poker (this also shows the poker itself works; the fee-hook pool refuses it below)
    const poker = await deploy('LiquidityPoker', LiquidityPokerAbi, [poolManager()]);
    await ready(1, token);
    await buy(1, token, usdc(1_000));
    await f.send(
      f
        .wallet(1)
        .writeContract({ address: token, abi: CompanyTokenAbi, functionName: 'transfer', args: [poker, 10n ** 23n] }),
    );
    await f.send(
      f.wallet(1).writeContract({
        address: f.usdcToken,
        abi: MockUSDCAbi,
        functionName: 'transfer',
        args: [poker, usdc(100_000)],
      }),
    );
    await write(2, {
      address: poker,
      abi: LiquidityPokerAbi as Abi,
      functionName: 'poke',
      args: [plain, -600, 600, 10n ** 15n, `0x${'0'.repeat(64)}`],
    });
    // graduation into the real pool, with an oversized buy quoted exactly
    const c = await curveOf(token);
    const amount = c.graduationVirtualUsdc - c.virtualUsdc + usdc(3_000);
    const quote = await quoteBuy(token, amount);
    const before = await tokensOf(token, f.addr(1));
    const receipt = await buy(1, token, amount, quote);
    expect((await tokensOf(token, f.addr(1))) - before).toBe(quote);
    const g = launcherEvents(receipt)[1]!.args as { poolId: Hex };
    expect(g.poolId).toBe(poolIdOf(key));
    expect(g.poolId).not.toBe(poolIdOf(plain));
  });
});

async function deploy(name: string, abi: Abi, args: readonly unknown[]): Promise<Address> {
  const hash = await f.wallet(0).deployContract({ abi, bytecode: loadArtifact(name).bytecode, args } as any);
  return getAddress((await f.send(Promise.resolve(hash))).contractAddress!);
}

// ---------------------------------------------------------------- locked liquidity

describe('liquidity', () => {
  it('nobody can add to or remove from the graduated pool, and the launcher has no way to remove it', async () => {
    const { token, receipt } = await launchAndGraduate('token0');
    const { poolId, liquidity } = launcherEvents(receipt)[1]!.args as { poolId: Hex; liquidity: bigint };
    const key = await poolKeyOf(token);
    const poker = await deploy('LiquidityPoker', LiquidityPokerAbi, [poolManager()]);
    // the poker has funds of both currencies, so only the hook can be what stops it
    await f.send(
      f
        .wallet(1)
        .writeContract({ address: token, abi: CompanyTokenAbi, functionName: 'transfer', args: [poker, 10n ** 23n] }),
    );
    await f.send(
      f.wallet(1).writeContract({
        address: f.usdcToken,
        abi: MockUSDCAbi,
        functionName: 'transfer',
        args: [poker, usdc(10_000)],
      }),
    );
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
    expect((await poolState(poolId)).liquidity).toBe(liquidity);

    // The launcher's position is keyed by the launcher's address, so only the launcher could ever touch it, and
    // none of its functions removes liquidity (its unlock callback only accepts the pool manager).
    const names = TokenLauncherAbi.filter((x) => x.type === 'function').map((x) => x.name);
    expect(names.filter((n) => /remove|withdraw|decrease|collect|burn|rescue|sweep|skim|migrate/i.test(n))).toEqual([]);
    await minedRevert(2, launcherCall('unlockCallback', ['0x']), 'LauncherUnauthorized', [f.addr(2)]);
  });
});

// ---------------------------------------------------------------- a third-party router

describe('swaps outside the launcher', () => {
  it.each([
    'token0',
    'token1',
  ] as const)('a router swapping directly in the pool (company token as %s) pays the hook fee and is named as the trader', async (side) => {
    const { token } = await launchAndGraduate(side);
    const swapper = await deploy('SimpleSwapper', SimpleSwapperAbi, [poolManager()]);
    const key = await poolKeyOf(token);
    await ready(3, token, swapper);
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
        tokensOf(token, f.addr(3)),
        f.usdcOf(f.addr(4)),
        tokensOf(token, f.addr(4)),
        f.usdcOf(f.addr(0)),
        tokensOf(token, f.addr(0)),
      ]);

    // exact input, buying: the output is the launcher's quote, the fee is in tokens
    let quote = await quoteBuy(token, usdc(700));
    let before = await balances();
    let receipt = await write(3, swap(true, -usdc(700)));
    let after = await balances();
    let trade = hookEvents(receipt)[0]!.args as { fee: bigint; tokenAmount: bigint };
    expect(hookEvents(receipt)[0]?.args).toMatchObject({
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
    await ready(3, token);
    await buy(3, token, usdc(50));
    const held = await tokensOf(token, f.addr(3));
    quote = await quoteSell(token, held);
    before = await balances();
    receipt = await write(3, swap(false, -held));
    after = await balances();
    trade = hookEvents(receipt)[0]!.args as { fee: bigint; tokenAmount: bigint };
    expect(hookEvents(receipt)[0]?.args).toMatchObject({
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
    receipt = await write(3, swap(true, want));
    after = await balances();
    const out = hookEvents(receipt)[0]!.args as { fee: bigint; usdcAmount: bigint };
    expect(hookEvents(receipt)[0]?.args).toMatchObject({
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
    const token = await launch('token0');
    const key = await poolKeyOf(token);
    const call = (functionName: string, args: readonly unknown[]) =>
      f.client.simulateContract({
        address: feeHook(),
        abi: PlatformFeeHookAbi,
        functionName,
        args,
        account: f.wallet(2).account,
      } as any);
    const liq = { tickLower: MIN_TICK, tickUpper: MAX_TICK, liquidityDelta: 1n, salt: `0x${'0'.repeat(64)}` };
    const swapParams = { zeroForOne: true, amountSpecified: -1n, sqrtPriceLimitX96: 4295128740n };
    await expectRevert(call('beforeInitialize', [launcher(), key, 1n << 96n]), 'HookOnlyPoolManager', [f.addr(2)]);
    await expectRevert(call('beforeAddLiquidity', [launcher(), key, liq, '0x']), 'HookOnlyPoolManager', [f.addr(2)]);
    await expectRevert(call('afterSwap', [launcher(), key, swapParams, 0n, '0x']), 'HookOnlyPoolManager', [f.addr(2)]);
    // removing is refused to everyone, the pool manager included
    await expectRevert(call('beforeRemoveLiquidity', [launcher(), key, liq, '0x']), 'HookLiquidityLocked', []);
    // the callbacks it has no permission bit for are never called and revert if they are
    await expectRevert(call('beforeSwap', [launcher(), key, swapParams, '0x']), 'HookNotImplemented', []);
    await expectRevert(call('afterInitialize', [launcher(), key, 1n << 96n, 0]), 'HookNotImplemented', []);
  });

  it('a new fee recipient gets the pool fees; a new launcher fee recipient gets the graduation dust', async () => {
    await write(0, {
      address: launcher(),
      abi: TokenLauncherAbi as Abi,
      functionName: 'setFeeRecipient',
      args: [f.addr(7)],
    });
    await write(0, {
      address: feeHook(),
      abi: PlatformFeeHookAbi as Abi,
      functionName: 'setFeeRecipient',
      args: [f.addr(8)],
    });
    const before7 = await f.usdcOf(f.addr(7));
    const { token, receipt } = await launchAndGraduate('token0');
    const dust = (launcherEvents(receipt)[1]!.args as { usdcToFeeRecipient: bigint }).usdcToFeeRecipient;
    expect((await f.usdcOf(f.addr(7))) - before7).toBe(dust);
    const buyReceipt = await buy(1, token, usdc(100));
    const fee = (hookEvents(buyReceipt)[0]!.args as { fee: bigint }).fee;
    expect(await tokensOf(token, f.addr(8))).toBe(fee);
    expect(await tokensOf(token, f.addr(0))).toBe(0n);
  });
});
