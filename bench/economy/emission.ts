// The staking emission, accounted from the contract's own record: what it accrued (its emission rate, as set by
// every EmissionPerSecondSet since its deployment, from the first deposit to now: an upper bound, since no pool
// accrues while it holds no stake) against what it paid (every Harvested amount) and still owes the simulation's
// stakers (pendingEmission). The invariant: paid and owed within accrued.
import { StakingAbi } from '@ai-economy/shared/abis';
import type { World } from './world.ts';

export interface EmissionResult {
  /** Whole primary tokens. */
  accruedTokens: number;
  paidTokens: number;
  pendingTokens: number;
}

const tokens = (wei: bigint) => Number(wei / 10n ** 12n) / 1e6;

export async function emissionAccount(world: World): Promise<EmissionResult> {
  const { client, contracts } = world.ctx;
  const staking = { address: contracts.staking, abi: StakingAbi } as const;
  const [rates, deposits, harvests] = await Promise.all([
    client.getContractEvents({ ...staking, eventName: 'EmissionPerSecondSet', fromBlock: 0n }),
    client.getContractEvents({ ...staking, eventName: 'Deposited', fromBlock: 0n }),
    client.getContractEvents({ ...staking, eventName: 'Harvested', fromBlock: 0n }),
  ]);
  const head = await client.getBlock();
  const timeOf = async (block: bigint) => (await client.getBlock({ blockNumber: block })).timestamp;
  let accrued = 0n;
  const first = deposits[0];
  if (first) {
    const start = await timeOf(first.blockNumber);
    // Each rate holds from its setting (or the first deposit, if later) to the next setting (or now).
    const steps = await Promise.all(
      rates.map(async (r) => ({ at: await timeOf(r.blockNumber), rate: r.args.emissionPerSecond ?? 0n })),
    );
    for (const [i, step] of steps.entries()) {
      const from = step.at > start ? step.at : start;
      const to = steps[i + 1]?.at ?? head.timestamp;
      if (to > from) accrued += (to - from) * step.rate;
    }
  }
  const paid = harvests.reduce((sum, h) => sum + (h.args.amount ?? 0n), 0n);
  const pools = await client.readContract({ ...staking, functionName: 'poolLength' });
  const accounts = new Set(deposits.map((d) => d.args.account!));
  let pending = 0n;
  for (const account of accounts) {
    for (let pid = 0n; pid < pools; pid++) {
      pending += await client.readContract({ ...staking, functionName: 'pendingEmission', args: [pid, account] });
    }
  }
  return { accruedTokens: tokens(accrued), paidTokens: tokens(paid), pendingTokens: tokens(pending) };
}
