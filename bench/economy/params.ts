// The owner's parameters a run takes (`--param NAME=VALUE`, `--config FILE`) and a sweep varies (`--sweep NAME`):
// each names where the platform reads it. Two kinds:
// - a setting the service reads at its start (src/config/settings/platform.ts): passed to the started service's
//   environment, as an operator sets it;
// - a contract's owner setter: called after the service is up, before any company exists, from the contract's
//   owner (the timelock after the deployment's hand-over: on the local chain the simulation impersonates it, which is
//   what a timelocked change looks like once its delay has passed).
// What is not here, and why (docs/economics.md "Owner parameters"): the score weights and the platform's buy-rule
// minimums are constants of the code (src/domain/scores/formula.ts SCORE_WEIGHTS, src/constants.ts
// BUY_RULES_DEFAULT, BUY_WINDOW), changed by a release, not by the owner; the card price takes effect a day after
// the owner schedules it (AccessCard.setMintPrice), and every card-priced attack's break-even is proportional to it.
import { AccessCardAbi, StakingAbi, TokenLauncherAbi } from '@ai-economy/shared/abis';
import {
  type Abi,
  type Address,
  createWalletClient,
  encodeFunctionData,
  type Hex,
  http,
  type TransactionReceipt,
} from 'viem';
import { type Ctx, rpc } from '../../scripts/demo/context.ts';
import { gasLimit } from '../../src/chain/outbox-reads.ts';
import { describeChainError } from '../../src/chain/revert.ts';
import { PLATFORM_SETTINGS } from '../../src/config/settings/platform.ts';

export interface OwnerParam {
  name: string;
  /** Where the platform reads it. */
  where: string;
  /** The value a run has when none is given. */
  default: number;
  /** The values `--sweep NAME` runs when `--values` gives none (the default among them). */
  sweep: readonly number[];
  min: number;
  max: number;
  /** A setting: the service's environment for the value. */
  env?: (value: number) => Record<string, string>;
  /** A contract's owner setter: the call for the value. */
  call?: (value: number, ctx: Ctx) => { address: Address; abi: Abi; functionName: string; args: unknown[] };
}

const WEI = 10n ** 18n;

/**
 * A setting the service reads at its start, passed to its environment as an operator sets it; its default is the
 * service's own (src/config/settings/platform.ts).
 */
function settingParam(
  name: string,
  setting: keyof typeof PLATFORM_SETTINGS,
  range: { sweep: readonly number[]; min: number; max: number; note?: string },
): OwnerParam {
  return {
    name,
    where: range.note ? `${setting} ${range.note}` : setting,
    default: Number(PLATFORM_SETTINGS[setting].default),
    sweep: range.sweep,
    min: range.min,
    max: range.max,
    env: (v) => ({ [setting]: String(v) }),
  };
}

export const OWNER_PARAMS: readonly OwnerParam[] = [
  {
    name: 'pool',
    where: 'EPOCH_REWARD_POOL (whole primary tokens here; wei in the setting)',
    default: Number(PLATFORM_SETTINGS.EPOCH_REWARD_POOL.default! / WEI),
    sweep: [10_000, 100_000, 1_000_000],
    min: 1,
    max: 1e9,
    env: (v) => ({ EPOCH_REWARD_POOL: String(BigInt(v) * WEI) }),
  },
  settingParam('floorTreasury', 'SCORE_FLOOR_TREASURY_USDC', { sweep: [1_000, 10_000, 100_000], min: 1, max: 1e12 }),
  settingParam('floorTrading', 'SCORE_FLOOR_TRADING_USDC', { sweep: [100, 1_000, 10_000], min: 1, max: 1e12 }),
  settingParam('floorVolume', 'SCORE_FLOOR_VOLUME_USDC', { sweep: [1_000, 10_000, 100_000], min: 1, max: 1e12 }),
  settingParam('floorActivity', 'SCORE_FLOOR_ACTIVITY_ROUNDS', { sweep: [6, 24, 96], min: 1, max: 1_000_000 }),
  settingParam('minHold', 'TRADING_MIN_HOLD_S', { sweep: [0, 3_600, 86_400], min: 0, max: 30 * 86_400 }),
  settingParam('graduation', 'GRADUATION_THRESHOLD_USD', {
    sweep: [1_000, 10_000, 100_000],
    min: 100,
    max: 1e9,
    note: '(tokens launched from then on)',
  }),
  {
    name: 'curveFeeBps',
    where: 'TokenLauncher.setCurveFee (at most 200: 2%)',
    default: 100,
    sweep: [0, 100, 200],
    min: 0,
    max: 200,
    call: (v, ctx) => ({
      address: ctx.contracts.tokenLauncher,
      abi: TokenLauncherAbi as Abi,
      functionName: 'setCurveFee',
      args: [v],
    }),
  },
  {
    name: 'emissionPerYear',
    where: 'Staking.setEmissionPerSecond (whole emission tokens a year here; wei a second on the contract)',
    default: 125_000,
    sweep: [12_500, 125_000, 1_250_000],
    min: 0,
    max: 1e12,
    call: (v, ctx) => ({
      address: ctx.contracts.staking,
      abi: StakingAbi as Abi,
      functionName: 'setEmissionPerSecond',
      args: [(BigInt(v) * WEI) / 31_536_000n],
    }),
  },
  ...([5, 3, 2] as const).map(
    (multiplier): OwnerParam => ({
      name: `boostCap${multiplier}x`,
      where: `Staking.setBoostCap(${multiplier}, cap): primary tokens a ${multiplier}x card boosts (whole tokens here)`,
      default: { 5: 1_000_000, 3: 250_000, 2: 100_000 }[multiplier],
      sweep: {
        5: [100_000, 1_000_000, 10_000_000],
        3: [25_000, 250_000, 2_500_000],
        2: [10_000, 100_000, 1_000_000],
      }[multiplier],
      min: 0,
      max: 3e8,
      call: (v, ctx) => ({
        address: ctx.contracts.staking,
        abi: StakingAbi as Abi,
        functionName: 'setBoostCap',
        args: [BigInt(multiplier), BigInt(v) * WEI],
      }),
    }),
  ),
];

export function ownerParam(name: string): OwnerParam {
  const p = OWNER_PARAMS.find((x) => x.name === name);
  if (!p)
    throw new Error(
      `unknown owner parameter "${name}" (the parameters: ${OWNER_PARAMS.map((x) => x.name).join(', ')})`,
    );
  return p;
}

/** A value of the parameter, checked against its range. */
export function paramValue(p: OwnerParam, raw: string | number): number {
  const v = typeof raw === 'number' ? raw : Number(raw);
  if (!Number.isFinite(v) || !Number.isInteger(v) || v < p.min || v > p.max) {
    throw new Error(`${p.name} must be a whole number ${p.min}-${p.max}, got "${raw}"`);
  }
  return v;
}

/** `NAME=VALUE` of --param. */
export function parseParamFlag(text: string): [string, number] {
  const eq = text.indexOf('=');
  if (eq <= 0) throw new Error(`--param must be NAME=VALUE, got "${text}"`);
  const p = ownerParam(text.slice(0, eq));
  return [p.name, paramValue(p, text.slice(eq + 1))];
}

/** A --config file's text: a JSON object of parameter names and values. */
export function parseParamConfig(text: string): Record<string, number> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(`the --config file is not JSON: ${(err as Error).message}`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new Error('the --config file must hold a JSON object of owner parameters and values');
  }
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(json)) {
    if (typeof v !== 'number' && typeof v !== 'string') throw new Error(`${k}: a number, got ${JSON.stringify(v)}`);
    out[ownerParam(k).name] = paramValue(ownerParam(k), v);
  }
  return out;
}

/** The service's environment for the given settings (the parameters that are settings). */
export function paramsEnv(values: Record<string, number>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, v] of Object.entries(values)) Object.assign(env, ownerParam(name).env?.(v) ?? {});
  return env;
}

/**
 * The owner's setters for the given contract parameters, sent from each contract's owner (impersonated: the local
 * chain only). Before any company exists, so every curve and stake of the run has them.
 */
export async function applyContractParams(ctx: Ctx, values: Record<string, number>, log: (line: string) => void) {
  for (const [name, v] of Object.entries(values)) {
    const p = ownerParam(name);
    if (!p.call) continue;
    const request = p.call(v, ctx);
    const owner = (await ctx.client.readContract({
      address: request.address,
      abi: AccessCardAbi as Abi,
      functionName: 'owner',
    })) as Address;
    await rpc(ctx, 'anvil_impersonateAccount', [owner]);
    await rpc(ctx, 'anvil_setBalance', [owner, `0x${(10n ** 20n).toString(16)}`]);
    try {
      const wallet = createWalletClient({ account: owner, chain: ctx.client.chain, transport: http(ctx.rpcUrl) });
      // A limit that holds in the block the call lands in, as the service's outbox's does (src/chain/outbox-reads.ts).
      // Without one, the impersonated account's eth_sendTransaction had anvil fill in its own estimate, made in the
      // latest block's conditions and with no margin: Staking.setEmissionPerSecond updates every pool first, which
      // costs a storage write in a block stamped later than the pool's last update and nothing in that same second,
      // and the deployment's addPool is in the latest block's second whenever its last transactions were mined
      // within it. The call then ran out of gas (the emission sweep at seed 7, docs/economics.md).
      const data = encodeFunctionData(request as never);
      const gas = await gasLimit(ctx.client as Parameters<typeof gasLimit>[0], owner, { to: request.address, data });
      const hash = await wallet.writeContract({ ...request, account: owner, chain: ctx.client.chain, gas } as never);
      const receipt = await ctx.client.waitForTransactionReceipt({ hash });
      if (receipt.status !== 'success') {
        throw new Error(
          `${p.where}: the owner's call ${await failure(ctx, owner, request.address, data, receipt, gas)}`,
        );
      }
    } finally {
      await rpc(ctx, 'anvil_stopImpersonatingAccount', [owner]);
    }
    log(`owner parameter ${name} = ${v} (${p.where})`);
  }
}

/** Why the owner's call failed: out of gas (all of its limit used, or all but the 1/64 EIP-150 keeps back), else the
 * revert the call gives when replayed on the state before its block. */
async function failure(ctx: Ctx, from: Address, to: Address, data: Hex, receipt: TransactionReceipt, limit: bigint) {
  if (receipt.gasUsed * 64n >= limit * 63n) {
    return `ran out of gas (${receipt.gasUsed} of its limit ${limit}, block ${receipt.blockNumber})`;
  }
  const why = await ctx.client
    .call({ account: from, to, data, blockNumber: receipt.blockNumber - 1n })
    .then(() => undefined, describeChainError);
  return `reverted${why ? ` (${why}, replayed before block ${receipt.blockNumber})` : ''}`;
}

/** Which of the issue's invariants each run of a sweep broke, a row a value. */
export interface SweepRow {
  value: number;
  failed: string[];
  honestShare: number | null;
  /** The lowest break-even of any strategy in the run; null: none earned. */
  bestBreakEven: { strategy: string; breakEven: number } | null;
  /** Every strategy's break-even in the run (null: it earned nothing), so a sweep shows the ones a value moves
   * that are not the lowest (a shallower curve makes herding cheaper while volume stays the cheapest). */
  breakEvens?: { strategy: string; breakEven: number | null }[];
  seconds: number;
  error?: string;
}

export function formatSweep(name: string, rows: readonly SweepRow[], head: string): string {
  const p = ownerParam(name);
  const table = [
    ['value', 'honest share', 'lowest break-even', 'invariants', 's'],
    ...rows.map((r) => [
      `${r.value}${r.value === p.default ? ' (default)' : ''}`,
      r.honestShare === null ? '-' : `${(r.honestShare * 100).toFixed(2)}%`,
      r.bestBreakEven ? `${r.bestBreakEven.breakEven} (${r.bestBreakEven.strategy})` : 'never',
      r.error ? 'run failed' : r.failed.length ? `FAIL ${r.failed.length}` : 'ok',
      String(r.seconds),
    ]),
  ];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  const lines = [head, `${name}: ${p.where}`, '', ...table.map(line)];
  for (const r of rows) {
    if (r.error) lines.push(`  ${name}=${r.value}: the run failed: ${r.error}`);
    else if (r.failed.length) lines.push(`  ${name}=${r.value}: ${r.failed.join('; ')}`);
  }
  for (const r of rows) {
    if (!r.breakEvens?.length) continue;
    const each = r.breakEvens.map((b) => `${b.strategy} ${b.breakEven ?? 'never'}`).join(', ');
    lines.push(`  ${name}=${r.value}: break-evens: ${each}`);
  }
  const ok = rows.filter((r) => !r.error && r.failed.length === 0).map((r) => r.value);
  lines.push(
    ok.length
      ? `held every invariant at: ${ok.join(', ')} (of ${rows.map((r) => r.value).join(', ')})`
      : `held every invariant at none of: ${rows.map((r) => r.value).join(', ')}`,
  );
  return `${lines.join('\n')}\n`;
}
