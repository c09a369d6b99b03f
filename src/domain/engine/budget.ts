// Each agent's budget in a decision round (micro-USD, by engine preset): what its model calls and tools spent, what
// it was refused and why. One rule charges a tool, in the roles phase and in execution alike.
import { AGENT_ROUND_BUDGET_MICRO_USD } from '../../constants.ts';
import { condense } from './condense.ts';
import type { Role } from './models/types.ts';
import type { Tool } from './tools.ts';

export interface Budget {
  agentId: string;
  role: Role;
  allocated: number;
  spent: number;
  llmCalls: number;
  llmCost: number;
  scrapeCalls: number;
  scrapeCost: number;
  chainReads: number;
  chainReadCost: number;
  toolCalls: number;
  refused: { tool: string; reason: string }[];
}

/** What each agent may spend this round under the company's engine preset. */
export function allocationFor(enginePreset: string): number {
  return AGENT_ROUND_BUDGET_MICRO_USD[enginePreset as keyof typeof AGENT_ROUND_BUDGET_MICRO_USD] ?? 0;
}

/** A fresh budget per active agent, by role. */
export function createBudgets(team: { id: string; role: Role }[], allocated: number): Map<Role, Budget> {
  return new Map(
    team.map((agent) => [
      agent.role,
      {
        agentId: agent.id,
        role: agent.role,
        allocated,
        spent: 0,
        llmCalls: 0,
        llmCost: 0,
        scrapeCalls: 0,
        scrapeCost: 0,
        chainReads: 0,
        chainReadCost: 0,
        toolCalls: 0,
        refused: [],
      },
    ]),
  );
}

/** Charges a model call (micro-USD) to the agent. */
export function chargeModelCall(budget: Budget, costMicroUsd: number): void {
  budget.llmCalls++;
  budget.llmCost += costMicroUsd;
  budget.spent += costMicroUsd;
}

/**
 * Charges `tool`'s cost to the agent when the budget still holds it and says so; otherwise records the refusal
 * ("over budget") and answers false, and the tool does not run.
 */
export function spend(budget: Budget, tool: Tool): boolean {
  if (budget.spent + tool.cost > budget.allocated) {
    budget.refused.push({ tool: tool.name, reason: 'over budget' });
    return false;
  }
  budget.spent += tool.cost;
  if (tool.kind === 'chain_read') {
    budget.chainReads++;
    budget.chainReadCost += tool.cost;
  } else if (tool.kind === 'market_read') {
    budget.scrapeCalls++;
    budget.scrapeCost += tool.cost;
  } else {
    budget.toolCalls++;
  }
  return true;
}

/** Characters kept of a refused tool's name (a model's text until it is checked) and of the reason. */
export const REFUSED_TOOL_MAX = 64;
export const REFUSED_REASON_MAX = 300;

/** Records a proposal that was not taken and why (an unknown tool, one disabled for the company). */
export function refuse(budget: Budget, tool: string, reason: string): void {
  budget.refused.push({ tool: condense(tool, REFUSED_TOOL_MAX), reason: condense(reason, REFUSED_REASON_MAX) });
}
