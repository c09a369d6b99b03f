// The gas the platform pays for each company (docs/api/companies.md "Gas the platform pays"): every transaction the platform
// signs is charged to the companies that caused it (the outbox adds its receipt's gas to company_gas_days), and a
// request that would take a company past its daily budget is refused with 429 GAS_BUDGET_EXCEEDED until the next
// UTC day. The estimates are what each kind of work measured on the local chain, rounded up (docs/contracts.md).
// The day is the chain's, one clock for the economy (docs/decisions.md "Costs the platform pays"): a transaction counts
// toward the UTC day of the block that mined it, and the budget is checked against the day of the chain's time now
// (src/chain/time.ts), never the server's clock.
import { and, eq } from 'drizzle-orm';
import { chainTime } from '../../chain/time.ts';
import type { Tx } from '../../db/client.ts';
import { companyGasDays } from '../../db/schema/chain.ts';
import { AppError } from '../../errors.ts';
import type { Deps } from '../deps.ts';

/** Gas each kind of platform work is estimated at before it is done. */
export const PLATFORM_GAS_ESTIMATES = {
  /** One agent's identity: the ERC-8004 registration and the agent-wallet proof. */
  agentProvision: 260_000n,
  /** A token launch (with its CREATE2 deployment). */
  tokenLaunch: 800_000n,
  /** A decision round's share of an anchoring batch, at worst a batch of one holding the company's first hash. */
  decisionAnchor: 120_000n,
  /** An epoch claim sent by the oracle. */
  claim: 130_000n,
  /** An agent's withdrawal at its worst: unstake, harvest, a transfer per token held, and the gas top-ups. */
  withdrawal: 600_000n,
} as const;

const DAY_MS = 86_400_000;

export interface GasToday {
  day: string;
  gasUsed: bigint;
  costWei: bigint;
  budget: bigint;
  /** When the day's count starts again (the next 00:00 UTC). */
  resetsAt: string;
}

/** The last day dayOf named, and where it starts: read routes ask it per request, nearly always of one day. */
let lastDay = { start: Number.NaN, name: '' };

/** The UTC day (YYYY-MM-DD) of a time in milliseconds (a chain time: the day a transaction's gas counts toward). */
export function dayOf(ms: number): string {
  const start = Math.floor(ms / DAY_MS) * DAY_MS;
  if (start !== lastDay.start) lastDay = { start, name: new Date(start).toISOString().slice(0, 10) };
  return lastDay.name;
}

/** The chain's time now in milliseconds (CHAIN_UNAVAILABLE when the node does not answer). */
export const chainNowMs = async (deps: Pick<Deps, 'chain'>) => Number(await chainTime(deps.chain.publicClient)) * 1000;

/** A day's figures with the budget; `used` is the company_gas_days row of the day, when there is one. */
export function gasDay(
  deps: Pick<Deps, 'config'>,
  day: string,
  used: { gasUsed: bigint; costWei: bigint } | undefined,
): GasToday {
  return {
    day,
    gasUsed: used?.gasUsed ?? 0n,
    costWei: used?.costWei ?? 0n,
    budget: deps.config.companyGasBudget,
    resetsAt: new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString(),
  };
}

/**
 * What the platform paid for the company today (the UTC day of the chain's time `nowMs`, read from the chain when not
 * given), with the budget.
 */
export async function gasToday(
  deps: Pick<Deps, 'config' | 'chain'>,
  db: Tx,
  companyId: string,
  nowMs?: number,
): Promise<GasToday> {
  const day = dayOf(nowMs ?? (await chainNowMs(deps)));
  const [row] = await db
    .select({ gasUsed: companyGasDays.gasUsed, costWei: companyGasDays.costWei })
    .from(companyGasDays)
    .where(and(eq(companyGasDays.companyId, companyId), eq(companyGasDays.day, day)));
  return gasDay(deps, day, row);
}

/**
 * 429 GAS_BUDGET_EXCEEDED (Retry-After: until the chain's next UTC day) when `estimate` more gas would take the company
 * past its daily budget; `what` names the work in the message.
 */
export async function requireGasBudget(
  deps: Pick<Deps, 'config' | 'chain' | 'database'>,
  companyId: string,
  estimate: bigint,
  what: string,
): Promise<void> {
  if (estimate <= 0n) return;
  const nowMs = await chainNowMs(deps);
  const today = await gasToday(deps, deps.database.db, companyId, nowMs);
  if (today.gasUsed + estimate <= today.budget) return;
  const retryAfterS = Math.max(1, Math.ceil((Date.parse(today.resetsAt) - nowMs) / 1000));
  throw new AppError(
    'GAS_BUDGET_EXCEEDED',
    `The platform pays this company's gas up to ${today.budget} gas a day; ${what} needs about ${estimate} more and ${today.gasUsed} is used today. Try again after ${today.resetsAt}`,
    { headers: { 'retry-after': String(retryAfterS) } },
  );
}
