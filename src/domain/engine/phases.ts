// Phases 2 to 7 of a decision round (phase 1 is context.ts). Each takes what the phases before it produced and the
// round's recorder, which counts its model calls; none writes the round row (pipeline.ts does).
//   2 brief       a model writes the round's brief
//   3 scrape      the market sources the company's tools may read, summarised by a model
//   4 roles       each active C-suite agent proposes actions within its own budget (reads run at once)
//   5 synthesis   the CEO model turns the proposals into a directive, as the autonomy level allows
//   6 extraction  the decision as strict JSON, validated against its schema and repaired once
//   7 execution   the allowed actions run, each charged to its agent's budget
import { describeChainError } from '../../chain/revert.ts';
import { DECISION_ACTIONS_MAX } from '../../constants.ts';
import type { DecisionAction } from '../../db/schema/decisions.ts';
import { storableJson } from '../../text.ts';
import { TradeRefused } from '../trading/actions.ts';
import { type Budget, chargeModelCall, refuse, spend } from './budget.ts';
import { type CompanyRow, type EngineDeps, PhaseError, type RoundInputs, toolSpecsOf } from './context.ts';
import { decisionValidator } from './decision-schema.ts';
import type { ChatMessage, ModelTask, Role, RoleAnswer } from './models/types.ts';
import { microUsd, type RoundRecorder } from './recorder.ts';
import { type Tool, toolNamed } from './tools.ts';

export interface Proposal {
  role: Role;
  tool: string;
  args: Record<string, unknown>;
  rationale: string;
  result?: string;
}

/** A failure as stored with the round: reverts decoded, storable, bounded. */
export const errorText = (err: unknown) => describeChainError(err);
const system = (content: string): ChatMessage => ({ role: 'system', content });
const user = (data: unknown): ChatMessage => ({ role: 'user', content: JSON.stringify(data) });

/** Phase 2. */
export async function writeBrief(rec: RoundRecorder, { company, context }: RoundInputs): Promise<string> {
  const answer = await rec.ask('briefGeneration', company, { phase: 'brief', context }, [
    system(
      'You are the chief of staff of an AI-run company. Write a short brief (at most 120 words) of where the company stands and what matters this round.',
    ),
    user(context),
  ]);
  return answer.content.trim();
}

/** Phase 3: every market source the company enables, read for the CEO and summarised. */
export async function readMarket(deps: EngineDeps, rec: RoundRecorder, inputs: RoundInputs): Promise<string> {
  const { company, context } = inputs;
  const sources: { name: string; data: unknown }[] = [];
  for (const tool of inputs.tools.filter((x) => x.kind === 'market_read')) {
    const args =
      tool.name === 'scan_token_trades' ? { hours: 24 } : tool.name === 'scan_platform_tokens' ? { limit: 5 } : {};
    sources.push({ name: tool.name, data: await runTool(deps, tool, company, 'CEO', args) });
    rec.addCost(tool.cost);
  }
  if (sources.length === 0) return 'No market source is enabled for this company.';
  const answer = await rec.ask('scrapeSummary', company, { phase: 'scrape', context, sources }, [
    system('Summarise these market readings for the executive team in at most 80 words.'),
    user(sources),
  ]);
  return answer.content.trim();
}

/** Phase 4: each agent proposes at most two actions; the reads among them run now, within its budget. */
export async function proposeActions(
  deps: EngineDeps,
  rec: RoundRecorder,
  inputs: RoundInputs,
  brief: string,
  market: string,
  budgets: Map<Role, Budget>,
): Promise<Proposal[]> {
  const { company, context } = inputs;
  const specs = toolSpecsOf(inputs);
  const perAgent = await Promise.all(
    inputs.active.map(async (agent) => {
      const budget = budgets.get(agent.role)!;
      const task: ModelTask = { phase: 'role', context, role: agent.role, brief, market, tools: specs };
      const answer = await rec.ask(
        'roleExecution',
        company,
        task,
        [
          system(
            `You are the ${agent.role} of ${company.name}, strategy ${agent.strategy.preset}. Propose at most 2 actions as JSON {"proposals":[{"tool","args","rationale"}]} using only the tools listed; each tool has a cost in USD and your budget this round is ${budget.allocated / 1e6} USD.`,
          ),
          user({ brief, market, tools: specs }),
        ],
        true,
      );
      chargeModelCall(budget, microUsd(answer.cost));
      const proposals: Proposal[] = [];
      for (const p of parseRoleAnswer(answer.content).slice(0, 2)) {
        const tool = toolNamed(p.tool);
        if (!tool || !inputs.tools.includes(tool)) {
          refuse(budget, p.tool, tool ? 'tool disabled for this company' : 'unknown tool');
          continue;
        }
        if (tool.kind === 'control' && agent.role !== 'CRO') {
          refuse(budget, p.tool, 'only the CRO can veto');
          continue;
        }
        const proposal: Proposal = { role: agent.role, tool: tool.name, args: p.args, rationale: p.rationale };
        // Actions wait for the CEO, a veto for phase 7; reads run at once when the budget holds them.
        if (tool.kind === 'chain_read' || tool.kind === 'market_read') {
          if (!spend(budget, tool)) continue;
          proposal.result = await runTool(deps, tool, company, agent.role, p.args);
        }
        proposals.push(proposal);
      }
      return proposals;
    }),
  );
  return perAgent.flat();
}

/** Phase 5. */
export async function synthesize(
  rec: RoundRecorder,
  { company, context }: RoundInputs,
  brief: string,
  market: string,
  proposals: Proposal[],
): Promise<string> {
  const answer = await rec.ask('ceoSynthesis', company, { phase: 'synthesis', context, brief, proposals }, [
    system(ceoInstructions(company)),
    user({ brief, market, proposals }),
  ]);
  return answer.content.trim();
}

const EXTRACTION_INSTRUCTIONS = `Extract the CEO's decision as one JSON object {"directive": string, "actions": [{"role": one of CFO|CTO|CMO|COO|CSO|CISO|CRO, "tool": one of the listed tools, "args": object matching the tool's parameters, "rationale": string}]} with at most ${DECISION_ACTIONS_MAX} actions. Answer with the JSON only.`;

/** Phase 6: the decision as validated JSON (one repair allowed); a human-directed company keeps its own directive. */
export async function extractDecision(
  rec: RoundRecorder,
  inputs: RoundInputs,
  synthesis: string,
): Promise<{ directive: string; actions: DecisionAction[] }> {
  const { company, context } = inputs;
  const actionSpecs = toolSpecsOf(inputs).filter((s) => toolNamed(s.name)?.kind === 'action');
  const validate = decisionValidator(
    inputs.tools.filter((tool) => tool.kind === 'action').map((tool) => tool.name),
    inputs.active.map((a) => a.role),
  );
  const messages = [system(EXTRACTION_INSTRUCTIONS), user({ synthesis, tools: actionSpecs })];
  const task: ModelTask = { phase: 'extraction', context, synthesis, tools: actionSpecs };
  let extracted = await rec.ask('jsonExtraction', company, task, messages, true);
  let decision = validate(extracted.content);
  if (!decision.ok) {
    extracted = await rec.ask(
      'jsonExtraction',
      company,
      { ...task, repairOf: extracted.content },
      [
        ...messages,
        { role: 'assistant', content: extracted.content },
        { role: 'user', content: `That answer is invalid: ${decision.error}. Answer again with valid JSON only.` },
      ],
      true,
    );
    decision = validate(extracted.content);
    if (!decision.ok) {
      throw new PhaseError('extraction', `the decision JSON is invalid after one repair: ${decision.error}`);
    }
  }
  const humanDirective = company.ceoPrompt ?? company.masterDirective;
  const directive =
    company.autonomyLevel === 'HUMAN_DIRECTED' && humanDirective ? humanDirective : decision.value.directive;
  return { directive, actions: decision.value.actions };
}

/** A veto of the CRO's proposals: the trading tool, and the token when named. */
interface Veto {
  tool: string;
  token?: string;
  reason: string;
}

export const vetoesOf = (proposals: Proposal[]): Veto[] =>
  proposals
    .filter((p) => p.role === 'CRO' && toolNamed(p.tool)?.kind === 'control' && typeof p.args.tool === 'string')
    .map((p) => ({
      tool: String(p.args.tool),
      ...(typeof p.args.token === 'string' ? { token: p.args.token } : {}),
      reason: typeof p.args.reason === 'string' ? p.args.reason : 'no reason given',
    }));

/**
 * Phase 7: the decided actions, each run when its agent's budget still holds it and no veto of the CRO covers it;
 * what each did or why it was refused, as text. A trading action's text ends with its transaction hash.
 */
export async function executeActions(
  deps: EngineDeps,
  company: CompanyRow,
  actions: DecisionAction[],
  budgets: Map<Role, Budget>,
  round: { id: string; vetoes: Veto[] },
): Promise<string[]> {
  const executed: string[] = [];
  for (const [index, action] of actions.entries()) {
    const tool = toolNamed(action.tool)!;
    const budget = budgets.get(action.role as Role)!;
    const veto = round.vetoes.find((v) => v.tool === tool.name && (!v.token || v.token === action.args.token));
    if (veto) {
      refuse(budget, tool.name, `vetoed by the CRO: ${veto.reason}`);
      executed.push(`${action.role} ${tool.name}: refused: vetoed by the CRO (${veto.reason})`);
      continue;
    }
    if (!spend(budget, tool)) continue;
    try {
      const done = await tool.run({
        deps,
        company,
        role: action.role,
        args: action.args,
        action: { roundId: round.id, index },
      });
      executed.push(`${action.role} ${tool.name}: ${done}`);
    } catch (err) {
      if (err instanceof TradeRefused) {
        refuse(budget, tool.name, err.message);
        executed.push(`${action.role} ${tool.name}: refused: ${err.message}`);
      } else {
        executed.push(`${action.role} ${tool.name}: failed: ${errorText(err)}`);
      }
    }
  }
  return executed;
}

function ceoInstructions(company: CompanyRow): string {
  const human = company.ceoPrompt ?? company.masterDirective;
  switch (company.autonomyLevel) {
    case 'HUMAN_DIRECTED':
      return `You are the CEO of ${company.name}. Your directive is set by the company's human owner and you follow it exactly: "${human ?? 'keep the company steady'}". Choose only the actions that carry it out.`;
    case 'STRATEGY_AUTONOMOUS':
      return `You are the CEO of ${company.name}. The owner's strategy is: "${company.masterDirective ?? 'grow the company'}". Within it, choose the tactics: write this round's directive and pick the actions.`;
    default:
      return `You are the CEO of ${company.name}, fully autonomous: set the strategy and the tactics. Write this round's directive and pick the actions.`;
  }
}

function parseRoleAnswer(content: string): RoleAnswer['proposals'] {
  try {
    // A model's text is outside text: stored actions and directives must never hold what PostgreSQL refuses.
    const value = storableJson(JSON.parse(content)) as RoleAnswer;
    if (!Array.isArray(value?.proposals)) return [];
    return value.proposals
      .filter(
        (p) =>
          p && typeof p.tool === 'string' && typeof p.args === 'object' && p.args !== null && !Array.isArray(p.args),
      )
      .map((p) => ({ tool: p.tool, args: p.args, rationale: typeof p.rationale === 'string' ? p.rationale : '' }));
  } catch {
    return [];
  }
}

async function runTool(
  deps: EngineDeps,
  tool: Tool,
  company: CompanyRow,
  role: string,
  args: Record<string, unknown>,
): Promise<string> {
  try {
    return await tool.run({ deps, company, role, args });
  } catch (err) {
    return `failed: ${errorText(err)}`;
  }
}
