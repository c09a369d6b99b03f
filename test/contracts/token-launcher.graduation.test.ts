// TokenLauncher, graduation into the Uniswap v4 pool: the buy that graduates (just below, exact, oversized), the
// accounting of the move into the pool, price continuity, graduating only once, trading through the launcher
// afterwards with the hook's 2.5% fee, the guards that still apply, and the gas of the main calls. Every test runs
// twice: with the company token as the pool's currency0 and as its currency1 (the token address follows from the
// company key). The pool's protections are in token-launcher.pool.test.ts.
import {
  type Abi,
  type Address,
  decodeErrorResult,
  encodeAbiParameters,
  encodeDeployData,
  getContractAddress,
  type Hex,
  hexToBigInt,
  isAddressEqual,
  keccak256,
  maxUint256,
  numberToHex,
  parseEventLogs,
  type TransactionReceipt,
  toHex,
} from 'viem';
import { describe, expect, it } from 'vitest';
import { loadArtifact } from '../../src/chain/artifacts.ts';
import {
  CompanyTokenAbi,
  MockUSDCAbi,
  PlatformFeeHookAbi,
  PoolManagerAbi,
  TokenLauncherAbi,
} from '../../src/chain/generated/abis.ts';
import { usdc, useCardChain } from './fixture.ts';

const f = useCardChain();
const launcher = () => f.chain.chain.contracts.tokenLauncher!;
const feeHook = () => f.chain.chain.contracts.feeHook!;
const poolManager = () => f.chain.chain.contracts.poolManager!;

const SUPPLY = 10n ** 24n;
const G = usdc(10_000);
const MIN_TICK = -887_220;
const MAX_TICK = 887_220;
const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;
/** Integer square root, rounded down (Newton's method). */
function sqrtFloor(x: bigint): bigint {
  if (x < 2n) return x;
  let r = x;
  let next = (x + 1n) / 2n;
  while (next < r) {
    r = next;
    next = (r + x / r) / 2n;
  }
  return r;
}
/** The hook's fee on a swap's unspecified amount: 2.5%, rounded down. */
const hookFee = (gross: bigint) => (gross * 250n) / 10_000n;
/** |a - b| <= b / 10,000 (0.01%). */
const within001 = (a: bigint, b: bigint) => (a > b ? a - b : b - a) * 10_000n <= b;

const ERRORS = [
  ...TokenLauncherAbi,
  ...PlatformFeeHookAbi,
  ...PoolManagerAbi,
  ...CompanyTokenAbi,
  ...MockUSDCAbi,
].filter((item) => item.type === 'error') as Abi;
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
  return receipt;
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
const sell = (i: number, token: Address, tokensIn: bigint, minOut = 0n) =>
  write(i, launcherCall('sell', [token, tokensIn, minOut, maxUint256]));
const tokensOf = (token: Address, account: Address) =>
  f.client.readContract({ address: token, abi: CompanyTokenAbi, functionName: 'balanceOf', args: [account] });
const totalSupply = (token: Address) =>
  f.client.readContract({ address: token, abi: CompanyTokenAbi, functionName: 'totalSupply' });
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
async function priceOf(token: Address) {
  const [price, marketCap] = await f.client.readContract({
    address: launcher(),
    abi: TokenLauncherAbi,
    functionName: 'priceOf',
    args: [token],
  });
  return { price, marketCap };
}
const graduated = (token: Address) =>
  f.client.readContract({ address: launcher(), abi: TokenLauncherAbi, functionName: 'graduated', args: [token] });
const eventsOf =
  <A extends Abi>(abi: A, address: () => Address) =>
  (receipt: TransactionReceipt) =>
    parseEventLogs({ abi, logs: receipt.logs.filter((l) => isAddressEqual(l.address, address())) });
const launcherEvents = eventsOf(TokenLauncherAbi, launcher);
const hookEvents = eventsOf(PlatformFeeHookAbi, feeHook);
const managerEvents = eventsOf(PoolManagerAbi, poolManager);

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
/** The pool's starting sqrt price from the curve's final reserves, as the launcher computes it. */
function graduationSqrtPrice(side: Side, v: bigint, t: bigint) {
  return sqrtFloor(side === 'token0' ? (v << 192n) / t : (t << 192n) / v);
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

// ---------------------------------------------------------------- graduation

describe.each(['token0', 'token1'] as const)('graduation, company token as %s', (side) => {
  it('a buy to just below the threshold does not graduate; the last raw unit does, and the price carries on', async () => {
    const token = await launch(side);
    await ready(1, token);
    const c = await curveOf(token);
    await buy(1, token, c.graduationVirtualUsdc - c.virtualUsdc - 1n);
    expect(await graduated(token)).toBe(false);
    const below = await curveOf(token);
    expect(below.graduated).toBe(false);
    expect(below.virtualUsdc).toBe(c.graduationVirtualUsdc - 1n);
    const before = await priceOf(token);
    expect(before.marketCap).toBeLessThan(G);
    expect(within001(before.marketCap, G)).toBe(true);

    const receipt = await buy(1, token, 1n);
    expect(launcherEvents(receipt).map((e) => e.eventName)).toEqual(['CurveTrade', 'Graduated']);
    expect(hookEvents(receipt)).toEqual([]);
    expect(await graduated(token)).toBe(true);
    const after = await priceOf(token);
    // continuity: the pool opens at the curve's last price, 0.01 USDC a token. The market cap (1e10 units) agrees
    // to a few units; the per-token price has only 4 significant digits here (9999 -> 10000), so it can show no
    // more than one unit of rounding.
    expect(within001(after.marketCap, before.marketCap)).toBe(true);
    expect(after.marketCap - before.marketCap).toBeLessThanOrEqual(5n);
    expect(after.price - before.price).toBeGreaterThanOrEqual(0n);
    expect(after.price - before.price).toBeLessThanOrEqual(1n);
    expect(within001(after.marketCap, G)).toBe(true);
  });

  it('the exact graduating buy creates the pool and accounts for every unit', async () => {
    const token = await launch(side);
    await ready(1, token);
    const c = await curveOf(token);
    const needed = c.graduationVirtualUsdc - c.virtualUsdc;
    const finalTokens = ceilDiv(c.k, c.graduationVirtualUsdc);
    const curveTokens = c.virtualTokens - finalTokens;
    expect(await quoteBuy(token, needed)).toBe(curveTokens);
    const recipientUsdc = await f.usdcOf(f.addr(0));

    const receipt = await buy(1, token, needed, curveTokens);
    expect(await tokensOf(token, f.addr(1))).toBe(curveTokens);
    const [trade, grad] = launcherEvents(receipt);
    expect(trade?.eventName).toBe('CurveTrade');
    expect(trade?.args).toMatchObject({ usdcAmount: needed, tokenAmount: curveTokens });
    expect(grad?.eventName).toBe('Graduated');
    const g = grad!.args as {
      token: Address;
      poolId: Hex;
      sqrtPriceX96: bigint;
      liquidity: bigint;
      usdcToPool: bigint;
      tokensToPool: bigint;
      usdcToFeeRecipient: bigint;
      tokensBurned: bigint;
    };

    // the pool: key, id, price, liquidity
    const key = await poolKeyOf(token);
    expect(key).toEqual({
      currency0: side === 'token0' ? token : f.usdcToken,
      currency1: side === 'token0' ? f.usdcToken : token,
      fee: 0,
      tickSpacing: 60,
      hooks: feeHook(),
    });
    expect(g.token).toBe(token);
    expect(g.poolId).toBe(poolIdOf(key));
    expect((await curveOf(token)).poolId).toBe(g.poolId);
    expect(g.sqrtPriceX96).toBe(graduationSqrtPrice(side, c.graduationVirtualUsdc, finalTokens));
    expect(await poolState(g.poolId)).toEqual({ sqrtPriceX96: g.sqrtPriceX96, liquidity: g.liquidity });
    const pm = managerEvents(receipt);
    expect(pm.map((e) => e.eventName)).toEqual(['Initialize', 'ModifyLiquidity']);
    expect(pm[0]?.args).toMatchObject({ id: g.poolId, ...key, sqrtPriceX96: g.sqrtPriceX96 });
    expect(pm[1]?.args).toEqual({
      id: g.poolId,
      sender: launcher(),
      tickLower: MIN_TICK,
      tickUpper: MAX_TICK,
      liquidityDelta: g.liquidity,
      salt: `0x${'0'.repeat(64)}`,
    });

    // every unit: the USDC the curve raised and the tokens the launcher held
    expect(g.usdcToPool + g.usdcToFeeRecipient).toBe(needed);
    expect(g.tokensToPool + g.tokensBurned).toBe(SUPPLY - curveTokens);
    expect(await tokensOf(token, launcher())).toBe(0n);
    expect(await f.usdcOf(launcher())).toBe(0n);
    expect(await totalSupply(token)).toBe(SUPPLY - g.tokensBurned);
    expect(await tokensOf(token, poolManager())).toBe(g.tokensToPool);
    expect(await f.usdcOf(poolManager())).toBe(g.usdcToPool);
    expect((await f.usdcOf(f.addr(0))) - recipientUsdc).toBe(g.usdcToFeeRecipient);
    // the curve's reserves are balanced at its last price, so almost nothing is left over: a unit or two of USDC
    // and a few million wei (a trillionth of a token at most) of tokens
    expect(g.usdcToFeeRecipient).toBeLessThanOrEqual(2n);
    expect(g.tokensBurned).toBeLessThan(10n ** 12n);
    // about a third of the supply and of G go into the pool
    expect(within001(g.tokensToPool * 3n, SUPPLY)).toBe(true);
    expect(within001(g.usdcToPool * 3n, G)).toBe(true);
    // the curve is frozen at its last state and holds nothing
    expect(await curveOf(token)).toMatchObject({
      virtualUsdc: c.graduationVirtualUsdc,
      virtualTokens: finalTokens,
      realUsdc: 0n,
      graduated: true,
    });
  });

  it('an oversized buy graduates and spends the rest in the new pool, exactly as quoted', async () => {
    const token = await launch(side);
    await ready(1, token);
    const c = await curveOf(token);
    const needed = c.graduationVirtualUsdc - c.virtualUsdc;
    const curveTokens = c.virtualTokens - ceilDiv(c.k, c.graduationVirtualUsdc);
    // large enough to move the pool's price across several tick-bitmap words
    const extra = usdc(25_000) + 123n;
    const quote = await quoteBuy(token, needed + extra);
    const recipientTokens = await tokensOf(token, f.addr(0));

    const receipt = await buy(1, token, needed + extra, quote);
    expect(await tokensOf(token, f.addr(1))).toBe(quote);
    expect(launcherEvents(receipt).map((e) => e.eventName)).toEqual(['CurveTrade', 'Graduated']);
    expect(launcherEvents(receipt)[0]?.args).toMatchObject({ usdcAmount: needed, tokenAmount: curveTokens });
    const trades = hookEvents(receipt).filter((e) => e.eventName === 'PoolTrade');
    expect(trades).toHaveLength(1);
    const t = trades[0]!.args as { tokenAmount: bigint; fee: bigint };
    expect(trades[0]?.args).toMatchObject({
      token,
      trader: f.addr(1),
      isBuy: true,
      usdcAmount: extra,
      tokenAmount: quote - curveTokens,
      feeInUsdc: false,
    });
    expect(t.fee).toBe(hookFee(t.tokenAmount + t.fee));
    expect((await tokensOf(token, f.addr(0))) - recipientTokens).toBe(t.fee);
    // the buyer's USDC all went in: the curve's part and the pool's part
    expect(await f.usdcOf(f.addr(1))).toBe(usdc(1_000_000) - needed - extra);
  });

  it('graduates once: later buys go to the pool, and nothing graduates again', async () => {
    const { token } = await launchAndGraduate(side);
    const curve = await curveOf(token);
    for (const amount of [usdc(5), usdc(20_000)]) {
      const receipt = await buy(1, token, amount);
      expect(launcherEvents(receipt)).toEqual([]);
      expect(managerEvents(receipt).map((e) => e.eventName)).toEqual(['Swap']);
      expect(hookEvents(receipt).map((e) => e.eventName)).toEqual(['PoolTrade']);
    }
    expect(await curveOf(token)).toEqual(curve);
    expect(await graduated(token)).toBe(true);
  });
});

// ---------------------------------------------------------------- trading after graduation

describe.each(['token0', 'token1'] as const)('after graduation, company token as %s', (side) => {
  it('buys and sells through the launcher pay exactly the quotes and exactly 2.5% to the fee recipient', async () => {
    const { token, receipt: gradReceipt } = await launchAndGraduate(side);
    const { poolId, liquidity } = launcherEvents(gradReceipt)[1]!.args as { poolId: Hex; liquidity: bigint };
    await ready(2, token);
    const steps: [boolean, bigint][] = [
      [true, usdc(100)],
      [false, 10n ** 21n],
      [true, usdc(40_000)], // crosses tick-bitmap words
      [false, 10n ** 18n + 7n],
      [true, 3n],
      [false, 0n], // everything trader 2 holds
    ];
    let price = await priceOf(token);
    for (const [isBuy, size] of steps) {
      const amount = isBuy || size > 0n ? size : await tokensOf(token, f.addr(2));
      const quote = isBuy ? await quoteBuy(token, amount) : await quoteSell(token, amount);
      const [usdcBefore, tokensBefore, feeUsdc, feeTokens] = await Promise.all([
        f.usdcOf(f.addr(2)),
        tokensOf(token, f.addr(2)),
        f.usdcOf(f.addr(0)),
        tokensOf(token, f.addr(0)),
      ]);
      const receipt = isBuy ? await buy(2, token, amount, quote) : await sell(2, token, amount, quote);
      const [usdcAfter, tokensAfter, feeUsdcAfter, feeTokensAfter] = await Promise.all([
        f.usdcOf(f.addr(2)),
        tokensOf(token, f.addr(2)),
        f.usdcOf(f.addr(0)),
        tokensOf(token, f.addr(0)),
      ]);
      expect(usdcAfter - usdcBefore).toBe(isBuy ? -amount : quote);
      expect(tokensAfter - tokensBefore).toBe(isBuy ? quote : -amount);
      const [trade] = hookEvents(receipt);
      const fee = (trade?.args as { fee: bigint }).fee;
      expect(trade?.args).toEqual({
        token,
        trader: f.addr(2),
        isBuy,
        usdcAmount: isBuy ? amount : quote,
        tokenAmount: isBuy ? quote : amount,
        fee,
        feeInUsdc: !isBuy,
        sqrtPriceX96: (await poolState(poolId)).sqrtPriceX96,
      });
      // 2.5% of the swap's output (its unspecified currency), to the fee recipient, in that currency
      expect(fee).toBe(hookFee(quote + fee));
      expect(fee).toBeGreaterThan(0n);
      expect(feeUsdcAfter - feeUsdc).toBe(isBuy ? 0n : fee);
      expect(feeTokensAfter - feeTokens).toBe(isBuy ? fee : 0n);
      // the price moves the right way, and the pool's liquidity never changes
      const next = await priceOf(token);
      if (isBuy) expect(next.marketCap).toBeGreaterThan(price.marketCap);
      else expect(next.marketCap).toBeLessThan(price.marketCap);
      price = next;
      expect((await poolState(poolId)).liquidity).toBe(liquidity);
    }
    expect(await f.usdcOf(launcher())).toBe(0n);
    expect(await tokensOf(token, launcher())).toBe(0n);
  });

  it('a buy bigger than the whole pool stops at the edge of the position, returns the unspent USDC, as quoted', async () => {
    const { token } = await launchAndGraduate(side);
    const huge = 10n ** 36n; // 1e30 USDC: far past what the full-range position holds
    await f.send(
      f
        .wallet(0)
        .writeContract({ address: f.usdcToken, abi: MockUSDCAbi, functionName: 'mint', args: [f.addr(2), huge] }),
    );
    await ready(2, token);
    const inPool = await tokensOf(token, poolManager());
    const quote = await quoteBuy(token, huge);
    const before = await f.usdcOf(f.addr(2));
    const receipt = await buy(2, token, huge, quote);
    expect(await tokensOf(token, f.addr(2))).toBe(quote);
    const paid = before - (await f.usdcOf(f.addr(2)));
    expect(paid).toBeLessThan(huge);
    const [trade] = hookEvents(receipt);
    const fee = (trade?.args as { fee: bigint }).fee;
    expect(trade?.args).toMatchObject({ trader: f.addr(2), isBuy: true, usdcAmount: paid, tokenAmount: quote });
    // the pool gave up every token it had but the rounding of its ~100 steps (a few dozen wei): the buyer's part
    // and the fee
    expect(inPool - quote - fee).toBeGreaterThanOrEqual(0n);
    expect(inPool - quote - fee).toBeLessThan(1_000n);
    expect(await f.usdcOf(launcher())).toBe(0n);
  });

  it("curve-phase limits no longer apply, the launcher's own guards still do", async () => {
    const { token } = await launchAndGraduate(side);
    const curve = await curveOf(token);
    expect(curve.realUsdc).toBe(0n);
    await ready(2, token);
    // far past what the curve could ever take, and a sale the empty curve could not pay
    await buy(2, token, usdc(60_000));
    const held = await tokensOf(token, f.addr(2));
    await sell(2, token, held / 2n);
    expect(await curveOf(token)).toEqual(curve);
    const q = await quoteBuy(token, usdc(10));
    await minedRevert(2, launcherCall('buy', [token, usdc(10), q + 1n, maxUint256]), 'LauncherSlippage', [q, q + 1n]);
    const s = await quoteSell(token, 10n ** 20n);
    await minedRevert(2, launcherCall('sell', [token, 10n ** 20n, s + 1n, maxUint256]), 'LauncherSlippage', [
      s,
      s + 1n,
    ]);
    await minedRevert(2, launcherCall('buy', [token, 0n, 0n, maxUint256]), 'LauncherZeroAmount', []);
    await minedRevert(2, launcherCall('sell', [token, 0n, 0n, maxUint256]), 'LauncherZeroAmount', []);
    expect(await quoteSell(token, 1n)).toBe(0n);
    await minedRevert(2, launcherCall('sell', [token, 1n, 0n, maxUint256]), 'LauncherZeroOutput', []);
    const now = (await f.client.getBlock()).timestamp;
    await f.client.setNextBlockTimestamp({ timestamp: now + 50n });
    await minedRevert(2, launcherCall('buy', [token, usdc(1), 0n, now + 49n]), 'LauncherDeadlinePassed', [
      now + 49n,
      now + 50n,
    ]);
  });
});

// ---------------------------------------------------------------- gas

describe('gas', () => {
  it('records the gas of launch, curve trades, graduation and pool trades', async () => {
    const launchReceipt = await write(0, launcherCall('launch', [keyFor('token0'), NAME, SYMBOL, f.addr(0), G]));
    const token = predictToken(keyFor('token0'));
    await ready(1, token);
    await ready(2, token);
    const firstBuy = await buy(1, token, usdc(100));
    const laterBuy = await buy(2, token, usdc(100));
    const curveSell = await sell(1, token, (await tokensOf(token, f.addr(1))) / 2n);
    const c = await curveOf(token);
    const graduating = await buy(2, token, c.graduationVirtualUsdc - c.virtualUsdc);
    const poolBuy = await buy(1, token, usdc(100)); // the fee recipient's first tokens
    const laterPoolBuy = await buy(1, token, usdc(100));
    const poolSell = await sell(1, token, (await tokensOf(token, f.addr(1))) / 2n);

    // an oversized graduating buy on a second token (the curve part, graduation and a pool swap)
    const other = await launch('token1');
    await ready(3, other);
    const oc = await curveOf(other);
    const oversized = await buy(3, other, oc.graduationVirtualUsdc - oc.virtualUsdc + usdc(1_000));

    const gas = {
      launch: launchReceipt.gasUsed,
      'buy on the curve (first buy of the account)': firstBuy.gasUsed,
      'buy on the curve (later)': laterBuy.gasUsed,
      'sell on the curve': curveSell.gasUsed,
      'buy that graduates (exact amount)': graduating.gasUsed,
      'buy that graduates and swaps the rest': oversized.gasUsed,
      'buy in the pool (fee recipient gets its first tokens)': poolBuy.gasUsed,
      'buy in the pool (later)': laterPoolBuy.gasUsed,
      'sell in the pool': poolSell.gasUsed,
    };
    console.log('TokenLauncher gas used', Object.fromEntries(Object.entries(gas).map(([k, v]) => [k, Number(v)])));
    expect(launchReceipt.gasUsed).toBeLessThan(900_000n);
    expect(firstBuy.gasUsed).toBeLessThan(150_000n);
    expect(laterBuy.gasUsed).toBeLessThan(150_000n);
    expect(curveSell.gasUsed).toBeLessThan(100_000n);
    expect(graduating.gasUsed).toBeLessThan(650_000n);
    expect(oversized.gasUsed).toBeLessThan(800_000n);
    expect(poolBuy.gasUsed).toBeLessThan(220_000n);
    expect(laterPoolBuy.gasUsed).toBeLessThan(poolBuy.gasUsed);
    expect(poolSell.gasUsed).toBeLessThan(220_000n);
  });
});
