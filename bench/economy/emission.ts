// The staking emission, accounted from the contract's own record: what it accrued (its emission rate, as set by
// every EmissionPerSecondSet since its deployment, from the first deposit on: an upper bound, since no pool accrues
// while it holds no stake) against what it paid (every Harvested amount) and still owes the simulation's stakers
// (pendingEmission). The invariants: paid and owed within accrued at the end, and at each epoch's end what was paid
// by then within what had accrued by then (the stakers harvest weekly: honest/staker.ts).
import { StakingAbi } from '@ai-economy/shared/abis';
import { wholeTokens } from './report.ts';
import type { World } from './world.ts';

export interface EmissionResult {
  /** Whole primary tokens. */
  accruedTokens: number;
  paidTokens: number;
  pendingTokens: number;
  /** At each distributed epoch's end: accrued and paid by then (whole tokens). */
  epochs?: { epoch: number; accruedTokens: number; paidTokens: number }[];
}

/** A rate of the contract (wei a second) from `at` (seconds) until the next one. */
export interface RateStep {
  at: bigint;
  rate: bigint;
}

/**
 * Wei accrued from `start` (the first deposit) to `until` at the rates in force (pure): each rate holds from its
 * setting, or `start` if later, to the next setting, or `until` if sooner.
 */
export function accruedUntil(steps: readonly RateStep[], start: bigint | undefined, until: bigint): bigint {
  if (start === undefined) return 0n;
  let accrued = 0n;
  for (const [i, step] of steps.entries()) {
    const from = step.at > start ? step.at : start;
    const next = steps[i + 1]?.at;
    const to = next !== undefined && next < until ? next : until;
    if (to > from) accrued += (to - from) * step.rate;
  }
  return accrued;
}

/** Wei harvested at or before `until` (pure). */
export const paidUntil = (harvests: readonly { at: bigint; amount: bigint }[], until: bigint) =>
  harvests.reduce((sum, h) => (h.at <= until ? sum + h.amount : sum), 0n);

/** The account at the end, and at each of `epochEnds` (epoch number and its end, chain seconds). */
export async function emissionAccount(
  world: World,
  epochEnds: readonly { epoch: number; endTime: number }[] = [],
): Promise<EmissionResult> {
  const { client, contracts } = world.ctx;
  const staking = { address: contracts.staking, abi: StakingAbi } as const;
  const [rates, deposits, harvestEvents] = await Promise.all([
    client.getContractEvents({ ...staking, eventName: 'EmissionPerSecondSet', fromBlock: 0n }),
    client.getContractEvents({ ...staking, eventName: 'Deposited', fromBlock: 0n }),
    client.getContractEvents({ ...staking, eventName: 'Harvested', fromBlock: 0n }),
  ]);
  const head = await client.getBlock();
  const times = new Map<bigint, bigint>();
  const timeOf = async (block: bigint) => {
    let t = times.get(block);
    if (t === undefined) {
      t = (await client.getBlock({ blockNumber: block })).timestamp;
      times.set(block, t);
    }
    return t;
  };
  const start = deposits[0] ? await timeOf(deposits[0].blockNumber) : undefined;
  const steps: RateStep[] = [];
  for (const r of rates) steps.push({ at: await timeOf(r.blockNumber), rate: r.args.emissionPerSecond ?? 0n });
  const harvests: { at: bigint; amount: bigint }[] = [];
  for (const h of harvestEvents) harvests.push({ at: await timeOf(h.blockNumber), amount: h.args.amount ?? 0n });
  const pools = await client.readContract({ ...staking, functionName: 'poolLength' });
  const accounts = new Set(deposits.map((d) => d.args.account!));
  let pending = 0n;
  for (const account of accounts) {
    for (let pid = 0n; pid < pools; pid++) {
      pending += await client.readContract({ ...staking, functionName: 'pendingEmission', args: [pid, account] });
    }
  }
  return {
    accruedTokens: wholeTokens(accruedUntil(steps, start, head.timestamp)),
    paidTokens: wholeTokens(paidUntil(harvests, head.timestamp)),
    pendingTokens: wholeTokens(pending),
    epochs: epochEnds.map(({ epoch, endTime }) => ({
      epoch,
      accruedTokens: wholeTokens(accruedUntil(steps, start, BigInt(endTime))),
      paidTokens: wholeTokens(paidUntil(harvests, BigInt(endTime))),
    })),
  };
}
