// The decision views (docs/api/decisions.md "Routes"): the round, the latest budget of each agent, and the verification.
import type { DecisionAction, decisionBudgets, decisionRounds } from '../../db/schema/decisions.ts';

type RoundRow = typeof decisionRounds.$inferSelect;
type BudgetRow = typeof decisionBudgets.$inferSelect;

const usd = (microUsd: number) => microUsd / 1_000_000;

const TX_AT_END = /,? tx (0x[0-9a-fA-F]{64})$/;

/**
 * What an action did, from its line in actionsExecuted (`ROLE tool: <what happened>`): done, refused (a veto, the
 * budget, a trading limit), failed (an error, or a transaction that reverted on-chain), or not run (the round
 * stopped before it); the text without the `ROLE tool: ` head nor the transaction hash a line ends with, and that hash.
 */
export function actionOutcome(action: DecisionAction, line: string | undefined) {
  if (line === undefined) return { status: 'not_run' as const, text: null, txHash: null };
  const head = `${action.role} ${action.tool}: `;
  const full = line.startsWith(head) ? line.slice(head.length) : line;
  const txHash = TX_AT_END.exec(full)?.[1] ?? null;
  const text = full.replace(TX_AT_END, '');
  const status = text.startsWith('refused: ')
    ? ('refused' as const)
    : text.startsWith('failed: ') || text.startsWith('reverted on-chain')
      ? ('failed' as const)
      : ('done' as const);
  return { status, text: text.replace(/^(refused|failed): /, ''), txHash };
}

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
    actions: actions.map((a, i) => ({
      role: a.role,
      tool: a.tool,
      args: a.args,
      rationale: a.rationale,
      outcome: actionOutcome(a, round.actionsExecuted?.[i]),
    })),
    companyId: round.companyId,
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

/**
 * The deliberation before a round's decision: each C-suite agent's proposals to the CEO and the CEO's reasoning;
 * `recorded` false for a round from before they were kept, one that stopped before the CEO answered, or one whose
 * details were pruned (`pruned`, after DECISION_DETAIL_RETENTION_DAYS).
 */
export function deliberationView(round: RoundRow) {
  return {
    recorded: round.ceoReasoning !== null,
    pruned: round.detailsPrunedAt !== null,
    proposals: (round.proposals ?? []).map((p) => ({
      role: p.role,
      tool: p.tool,
      args: p.args,
      rationale: p.rationale,
      result: p.result ?? null,
    })),
    ceoReasoning: round.ceoReasoning,
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
