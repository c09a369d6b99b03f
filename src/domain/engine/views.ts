// The decision views (docs/api/decisions.md "Routes"): the round, the latest budget of each agent, and the verification.
import type { decisionBudgets, decisionRounds } from '../../db/schema/decisions.ts';

type RoundRow = typeof decisionRounds.$inferSelect;
type BudgetRow = typeof decisionBudgets.$inferSelect;

const usd = (microUsd: number) => microUsd / 1_000_000;

/** docs/api/decisions.md "Decision round", plus the phases, the hash and, for a failed round, where and why. */
export function roundView(round: RoundRow) {
  const actions = round.actions ?? [];
  return {
    id: round.id,
    cycle: round.cycle,
    status: round.status as 'RUNNING' | 'COMPLETE' | 'FAILED',
    ceoDecision: {
      directive: round.directive ?? '',
      actions: actions.map(
        (a) => `${a.role} ${a.tool} ${JSON.stringify(a.args)}${a.rationale ? ` (${a.rationale})` : ''}`,
      ),
    },
    actionsExecuted: round.actionsExecuted ?? [],
    totalDurationMs: round.totalDurationMs ?? 0,
    llmTokensUsed: round.llmTokensUsed,
    createdAt: round.createdAt.toISOString(),
    trigger: round.trigger as 'SCHEDULED' | 'MANUAL',
    phases: round.phases.map((p) => ({ ...p, cost: usd(p.cost) })),
    decisionHash: round.decisionHash,
    anchoredTxHash: round.anchorTxHash,
    ...(round.status === 'FAILED' ? { failedPhase: round.phase, error: round.error } : {}),
  };
}

/** docs/api/decisions.md "Agent budget entry (latest round)"; amounts in USD. */
export function budgetView(b: BudgetRow) {
  return {
    role: b.role,
    agentId: b.agentId,
    allocatedBudget: usd(b.allocated),
    spentBudget: usd(b.spent),
    llmCalls: b.llmCalls,
    llmCost: usd(b.llmCost),
    scrapeCalls: b.scrapeCalls,
    scrapeCost: usd(b.scrapeCost),
    chainReads: b.chainReads,
    chainReadCost: usd(b.chainReadCost),
    refused: b.refused,
  };
}
