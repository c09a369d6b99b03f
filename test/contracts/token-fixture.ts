// Shared set-up for the token launcher tests (token-launcher.*.test.ts): the card chain of ./fixture.ts extended with
// helpers to launch company tokens, trade them through the launcher, read the curve and the graduated v4 pool, and
// decode the revert of a mined transaction; and, as plain exports, the launcher's constants and a bigint model of the
// curve's formulas.

import {
  CompanyTokenAbi,
  CompanyTokenDeployerAbi,
  MockUSDCAbi,
  PlatformFeeHookAbi,
  PoolManagerAbi,
  TokenLauncherAbi,
} from '@ai-economy/shared/abis';
import {
  type Abi,
  type Address,
  type ContractFunctionReturnType,
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
  parseAbi,
  parseEventLogs,
  type TransactionReceipt,
  toHex,
} from 'viem';
import { beforeAll, expect } from 'vitest';
import { loadArtifact } from '../../src/chain/artifacts.ts';
import { tokenDeployerAddress } from '../../src/chain/contracts/launcher.ts';
import { type CardFixture, usdc, useCardChain } from './fixture.ts';

// ---------------------------------------------------------------- constants

export const SUPPLY = 10n ** 24n;
export const G = usdc(10_000);
export const MIN_TICK = -887_220;
export const MAX_TICK = 887_220;
export const NAME = 'Acme Robotics';
export const SYMBOL = 'ACME';
export const keyOf = (label: string) => keccak256(toHex(label));

/** Errors of Uniswap v4 that the ABIs lack: a hook's refusal arrives wrapped in them. */
export const V4_ERRORS = parseAbi([
  'error WrappedError(address target, bytes4 selector, bytes reason, bytes details)',
  'error HookCallFailed()',
]);
/** Every custom error a launcher transaction can end in, to decode the revert data of a mined one. */
export const ERRORS = [
  ...TokenLauncherAbi,
  ...PlatformFeeHookAbi,
  ...PoolManagerAbi,
  ...CompanyTokenAbi,
  ...CompanyTokenDeployerAbi,
  ...MockUSDCAbi,
  ...V4_ERRORS,
].filter((item) => item.type === 'error') as Abi;

// ---------------------------------------------------------------- the contract's formulas, in bigint

export const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;
/** Integer square root, rounded down (Newton's method). */
export function sqrtFloor(x: bigint): bigint {
  if (x < 2n) return x;
  let r = x;
  let next = (x + 1n) / 2n;
  while (next < r) {
    r = next;
    next = (r + x / r) / 2n;
  }
  return r;
}
export const sqrtCeil = (x: bigint) => {
  const r = sqrtFloor(x);
  return r * r < x ? r + 1n : r;
};
/** The hook's fee on a swap's unspecified amount: 2.5%, rounded down. */
export const hookFee = (gross: bigint) => (gross * 250n) / 10_000n;

export interface Curve {
  v: bigint;
  t: bigint;
  k: bigint;
  real: bigint;
  gV: bigint;
  v0: bigint;
  t0: bigint;
}
/** The smallest V with V * supply / ceil(k / V) >= G. */
export function graduationV(k: bigint, threshold: bigint): bigint {
  let v = sqrtCeil((threshold * k) / SUPPLY);
  while (v * SUPPLY < threshold * ceilDiv(k, v)) v++;
  return v;
}
export function initialCurve(threshold: bigint): Curve {
  const v0 = threshold / 3n;
  const t0 = (SUPPLY * 4n) / 3n;
  const k = v0 * t0;
  return { v: v0, t: t0, k, real: 0n, gV: graduationV(k, threshold), v0, t0 };
}
export const priceOfCurve = (c: Curve) => ({ price: (c.v * 10n ** 18n) / c.t, marketCap: (c.v * SUPPLY) / c.t });

// ---------------------------------------------------------------- the v4 pool

export type PoolKey = ContractFunctionReturnType<typeof TokenLauncherAbi, 'view', 'poolKeyOf'>;
export const poolIdOf = (key: PoolKey) =>
  keccak256(
    encodeAbiParameters(
      [{ type: 'address' }, { type: 'address' }, { type: 'uint24' }, { type: 'int24' }, { type: 'address' }],
      [key.currency0, key.currency1, key.fee, key.tickSpacing, key.hooks],
    ),
  );

/** Which of the pool's currencies the company token is. */
export type Side = 'token0' | 'token1';

// ---------------------------------------------------------------- chain helpers

/** A write to send or revert on purpose, loosely typed: one helper for any contract and function. */
export interface Call {
  address: Address;
  abi: Abi;
  functionName: string;
  args?: readonly unknown[];
}

function tokenHelpers(f: CardFixture) {
  const launcher = () => f.chain.chain.contracts.tokenLauncher!;
  const feeHook = () => f.chain.chain.contracts.feeHook!;
  const poolManager = () => f.chain.chain.contracts.poolManager!;

  const launcherCall = (functionName: string, args: readonly unknown[]): Call => ({
    address: launcher(),
    abi: TokenLauncherAbi as Abi,
    functionName,
    args,
  });
  /** Sends a write from account i with a fixed gas limit (anvil's estimate can be short for state-dependent calls). */
  const write = (i: number, call: Call) =>
    f.send(f.wallet(i).writeContract({ ...call, args: call.args ?? [], gas: 3_000_000n } as any));
  /**
   * Sends `call` from account i with a fixed gas limit, expects it mined and reverted, and decodes the revert data of
   * that very transaction (debug_traceTransaction), so state-dependent errors (deadlines) are read as they happened
   * (the card fixture's minedRevert replays the call on the block before instead). Returns the receipt and the
   * error's arguments.
   */
  async function tracedRevert(i: number, call: Call, errorName: string, args?: readonly unknown[]) {
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

  function predictToken(key: Hex, name = NAME, symbol = SYMBOL): Address {
    const bytecode = encodeDeployData({
      abi: CompanyTokenAbi,
      bytecode: loadArtifact('CompanyToken').bytecode,
      args: [name, symbol, SUPPLY, launcher()],
    });
    return getContractAddress({ from: tokenDeployerAddress(launcher()), opcode: 'CREATE2', salt: key, bytecode });
  }
  async function launch(
    opts: { key?: Hex; name?: string; symbol?: string; threshold?: bigint; creator?: Address; from?: number } = {},
  ): Promise<{ token: Address; receipt: TransactionReceipt }> {
    const key = opts.key ?? keyOf('company-1');
    const name = opts.name ?? NAME;
    const symbol = opts.symbol ?? SYMBOL;
    const args = [key, name, symbol, opts.creator ?? f.addr(0), opts.threshold ?? G] as const;
    const receipt = await write(opts.from ?? 0, launcherCall('launch', args));
    return { token: predictToken(key, name, symbol), receipt };
  }

  const keys = new Map<Side, Hex>();
  /** The first company key whose token sorts before (token0) or after (token1) USDC. */
  function keyFor(side: Side): Hex {
    if (!keys.has(side)) {
      for (let n = 0; ; n++) {
        const key = keyOf(`company-${n}`);
        const isToken0 = hexToBigInt(predictToken(key)) < hexToBigInt(f.usdcToken);
        if (isToken0 === (side === 'token0')) {
          keys.set(side, key);
          break;
        }
      }
    }
    return keys.get(side)!;
  }
  /** Launches the token of `side` (its key from keyFor) from the platform account and returns its address. */
  async function launchSide(side: Side, threshold = G): Promise<Address> {
    return (await launch({ key: keyFor(side), threshold })).token;
  }

  /** Approves `spender` (the launcher by default) for all of account i's USDC and `token`. */
  async function ready(i: number, token: Address, spender = launcher()) {
    const w = f.wallet(i);
    await f.send(
      w.writeContract({ address: f.usdcToken, abi: MockUSDCAbi, functionName: 'approve', args: [spender, maxUint256] }),
    );
    await f.send(
      w.writeContract({ address: token, abi: CompanyTokenAbi, functionName: 'approve', args: [spender, maxUint256] }),
    );
  }
  const buy = (i: number, token: Address, usdcIn: bigint, minOut = 0n, deadline = maxUint256) =>
    write(i, launcherCall('buy', [token, usdcIn, minOut, deadline]));
  const sell = (i: number, token: Address, tokensIn: bigint, minOut = 0n, deadline = maxUint256) =>
    write(i, launcherCall('sell', [token, tokensIn, minOut, deadline]));

  const tokensOf = (token: Address, account: Address) =>
    f.client.readContract({ address: token, abi: CompanyTokenAbi, functionName: 'balanceOf', args: [account] });
  const totalSupply = (token: Address) =>
    f.client.readContract({ address: token, abi: CompanyTokenAbi, functionName: 'totalSupply' });
  const curveOf = (token: Address) =>
    f.client.readContract({ address: launcher(), abi: TokenLauncherAbi, functionName: 'curveOf', args: [token] });
  const poolKeyOf = (token: Address): Promise<PoolKey> =>
    f.client.readContract({ address: launcher(), abi: TokenLauncherAbi, functionName: 'poolKeyOf', args: [token] });
  const quote = (functionName: 'quoteBuy' | 'quoteSell') => (token: Address, amount: bigint) =>
    f.client.readContract({ address: launcher(), abi: TokenLauncherAbi, functionName, args: [token, amount] });
  const quoteBuy = quote('quoteBuy');
  const quoteSell = quote('quoteSell');
  async function priceOf(token: Address) {
    const [price, marketCap] = await f.client.readContract({
      address: launcher(),
      abi: TokenLauncherAbi,
      functionName: 'priceOf',
      args: [token],
    });
    return { price, marketCap };
  }
  /** The fee hook's ERC-6909 fee claims in `currency` (USDC or a company token), not yet withdrawn. */
  const feesAccrued = (currency: Address) =>
    f.client.readContract({
      address: feeHook(),
      abi: PlatformFeeHookAbi,
      functionName: 'feesAccrued',
      args: [currency],
    });
  /** Curve fees and graduation dust the launcher holds for the fee recipient. */
  const curveFeesAccrued = () =>
    f.client.readContract({ address: launcher(), abi: TokenLauncherAbi, functionName: 'curveFeesAccrued' });
  const graduated = (token: Address) =>
    f.client.readContract({ address: launcher(), abi: TokenLauncherAbi, functionName: 'graduated', args: [token] });

  const eventsOf =
    <A extends Abi>(abi: A, address: () => Address) =>
    (receipt: TransactionReceipt) =>
      parseEventLogs({ abi, logs: receipt.logs.filter((l) => isAddressEqual(l.address, address())) });
  const launcherEvents = eventsOf(TokenLauncherAbi, launcher);
  const hookEvents = eventsOf(PlatformFeeHookAbi, feeHook);
  const managerEvents = eventsOf(PoolManagerAbi, poolManager);

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
    const token = await launchSide(side);
    await ready(trader, token);
    const c = await curveOf(token);
    const receipt = await buy(trader, token, c.graduationVirtualUsdc - c.virtualUsdc);
    expect(await graduated(token)).toBe(true);
    return { token, receipt };
  }

  return {
    launcher,
    feeHook,
    poolManager,
    launcherCall,
    write,
    tracedRevert,
    predictToken,
    launch,
    keyFor,
    launchSide,
    ready,
    buy,
    sell,
    tokensOf,
    totalSupply,
    curveOf,
    poolKeyOf,
    quoteBuy,
    quoteSell,
    priceOf,
    graduated,
    curveFeesAccrued,
    feesAccrued,
    launcherEvents,
    hookEvents,
    managerEvents,
    poolState,
    launchAndGraduate,
  };
}

export type TokenFixture = CardFixture & ReturnType<typeof tokenHelpers>;

/**
 * Registers the hooks of a token launcher test file (useCardChain's: the worker's chain for the file, a snapshot
 * around every test) and returns its fixture with the token helpers added; the chain behind them is there by the
 * time the tests run.
 */
export function useTokenChain(options: { curveFeeBps?: number } = {}): TokenFixture {
  const f = useCardChain();
  const token = Object.assign(f, tokenHelpers(f));
  // Before the snapshot every test starts from: the launcher's curve fee as the file asks (its owner is account 0).
  if (options.curveFeeBps !== undefined) {
    beforeAll(async () => {
      await token.write(0, token.launcherCall('setCurveFee', [options.curveFeeBps]));
    });
  }
  return token;
}
