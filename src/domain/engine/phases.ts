// Phases 2 to 6 of a decision round (phase 1 is context.ts, phase 7 execution.ts). Each takes what the phases
// before it produced, shortened to what the next one needs (a model's text is bounded before it is passed on), and
// the round's recorder, which counts its model calls; none writes the round row (pipeline.ts does).
//   2 brief       a model writes the round's brief
//   3 scrape      the market sources the company's tools may read, summarised by a model
//   4 roles       each active C-suite agent proposes actions within its own budget (reads run at once); an agent
//                 whose model fails proposes nothing, with the error noted, and the round goes on
//   5 synthesis   the CEO model turns the proposals into a directive, as the autonomy level allows
//   6 extraction  the decision as JSON (strict structured output where the model has it), validated against its
//                 schema action by action: valid actions kept, invalid ones refused with their reasons; repaired
//                 once only when the answer is unusable as a whole or none of its actions is valid
import { trace } from '@opentelemetry/api';
import { describeChainError } from '../../chain/revert.ts';
import { DECISION_ACTIONS_MAX } from '../../constants.ts';
import type { DecisionAction } from '../../db/schema/decisions.ts';
import { storableJson } from '../../text.ts';
import { type Budget, refuse, spend } from './budget.ts';
import { condense } from './condense.ts';
import { type CompanyRow, type EngineDeps, PhaseError, type RoundInputs } from './context.ts';
import { argumentError, decisionAnswerSchema, decisionValidator } from './decision-schema.ts';
import { withoutNulls } from './models/request.ts';
import type { ChatMessage, ModelTask, Role, RoleAnswer } from './models/types.ts';
import {
  briefView,
  ceoView,
  DATA_NOT_INSTRUCTIONS,
  extractionView,
  notOfRole,
  ownerDirective,
  roleInstructions,
  roleView,
  specsOf,
  toolsOfRole,
} from './prompts.ts';
import { type RoundRecorder, RoundStopped } from './recorder.ts';
import { type Tool, toolNamed } from './tools.ts';
import { toolSpan } from './tracing.ts';

/** Characters of each model text passed to the next phase at most. */
export const PASSED_TEXT_MAX = { brief: 2_000, market: 2_000, synthesis: 4_000, rationale: 500, toolResult: 1_000 };

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
export async function writeBrief(rec: RoundRecorder, inputs: RoundInputs): Promise<string> {
  const { company, context } = inputs;
  const answer = await rec.ask('briefGeneration', company, { phase: 'brief', context }, [
    system(
      `You are the chief of staff of an AI-run company. Write a short brief (at most 120 words) of where the company stands and what matters this round, the outcomes of the last rounds included. ${DATA_NOT_INSTRUCTIONS}`,
    ),
    user(briefView(inputs)),
  ]);
  return condense(answer.content.trim(), PASSED_TEXT_MAX.brief);
}

/** Phase 3: every market source the company enables, read for the CEO and summarised. */
export async function readMarket(deps: EngineDeps, rec: RoundRecorder, inputs: RoundInputs): Promise<string> {
  const { company, context } = inputs;
  const sources: { name: string; data: unknown }[] = [];
  for (const tool of inputs.tools.filter((x) => x.kind === 'market_read')) {
    const args =
      tool.name === 'scan_token_trades' ? { hours: 24 } : tool.name === 'scan_platform_tokens' ? { limit: 5 } : {};
    sources.push({ name: tool.name, data: await runTool(deps, tool, company, 'CEO', args, rec) });
    rec.addCost(tool.cost);
  }
  if (sources.length === 0) return 'No market source is enabled for this company.';
  const answer = await rec.ask('scrapeSummary', company, { phase: 'scrape', context, sources }, [
    system(`Summarise these market readings for the executive team in at most 80 words. ${DATA_NOT_INSTRUCTIONS}`),
    user(sources),
  ]);
  return condense(answer.content.trim(), PASSED_TEXT_MAX.market);
}

/**
 * Phase 4: each agent proposes at most two actions with the tools it can use (prompts.ts); the reads among them run
 * now, within its budget. The tools go as function calls (their schemas once, there), the system prompt names each
 * with its cost. A role with no tool this round is not asked.
 */
export async function proposeActions(
  deps: EngineDeps,
  rec: RoundRecorder,
  inputs: RoundInputs,
  brief: string,
  market: string,
  budgets: Map<Role, Budget>,
): Promise<Proposal[]> {
  const { company, context } = inputs;
  const perAgent = await Promise.all(
    inputs.active.map(async (agent): Promise<Proposal[]> => {
      const budget = budgets.get(agent.role)!;
      const own = toolsOfRole(inputs, agent.role);
      if (own.length === 0) {
        rec.note(`${agent.role}: no tool it can use this round: not asked`);
        return [];
      }
      const specs = specsOf(own);
      const task: ModelTask = { phase: 'role', context, role: agent.role, brief, market, tools: specs };
      let content: string;
      try {
        const answer = await rec.ask(
          'roleExecution',
          company,
          task,
          [
            system(roleInstructions(company, agent.role, agent.strategy.preset, own, budget.allocated / 1e6)),
            user({ brief, market, situation: roleView(inputs, agent.role, own) }),
          ],
          { json: true, tools: specs, budget, role: agent.role },
        );
        content = answer.content;
      } catch (err) {
        // One agent's failed model is that agent's silence, not the round's failure.
        if (err instanceof RoundStopped || rec.signal.aborted) throw err;
        rec.note(`${agent.role}: no proposals: ${errorText(err)}`);
        return [];
      }
      const proposals: Proposal[] = [];
      const answered = parseRoleAnswer(content);
      for (const r of answered.refused) {
        refuse(budget, r.tool, r.reason);
        rec.note(`${agent.role}: refused ${r.tool}: ${r.reason}`);
      }
      for (const p of answered.proposals.slice(0, 2)) {
        const tool = toolNamed(p.tool);
        if (!tool || !inputs.tools.includes(tool)) {
          refuse(budget, p.tool, tool ? 'tool disabled for this company' : 'unknown tool');
          continue;
        }
        if (!own.includes(tool)) {
          refuse(budget, p.tool, notOfRole(agent.role, tool));
          continue;
        }
        const invalid = argumentError(tool.name, p.args);
        if (invalid) {
          refuse(budget, p.tool, `invalid arguments: ${invalid}`);
          continue;
        }
        const proposal: Proposal = {
          role: agent.role,
          tool: tool.name,
          args: p.args,
          rationale: condense(p.rationale, PASSED_TEXT_MAX.rationale),
        };
        // Actions wait for the CEO, a veto for phase 7 (its span says it was recorded); reads run at once when the
        // budget holds them.
        if (tool.kind === 'control') {
          toolSpan(deps.tracer ?? trace.getTracer('ai-economy.engine'), rec.phaseSpan, tool, {
            role: agent.role,
            companyId: company.id,
          }).end('recorded');
        }
        if (tool.kind === 'chain_read' || tool.kind === 'market_read') {
          if (!spend(budget, tool)) continue;
          proposal.result = condense(
            await runTool(deps, tool, company, agent.role, p.args, rec),
            PASSED_TEXT_MAX.toolResult,
          );
        }
        proposals.push(proposal);
      }
      return proposals;
    }),
  );
  return perAgent.flat();
}

/** Phase 5: the CEO decides from the proposals, with the whole situation and the action tools before it. */
export async function synthesize(
  rec: RoundRecorder,
  inputs: RoundInputs,
  brief: string,
  market: string,
  proposals: Proposal[],
): Promise<string> {
  const { company, context } = inputs;
  const answer = await rec.ask('ceoSynthesis', company, { phase: 'synthesis', context, brief, proposals }, [
    system(ceoInstructions(company)),
    user({ brief, market, proposals, situation: ceoView(inputs) }),
  ]);
  return condense(answer.content.trim(), PASSED_TEXT_MAX.synthesis);
}

const EXTRACTION_INSTRUCTIONS = `Extract the CEO's decision as one JSON object {"directive": string, "actions": [{"role": one of the roles, "tool": one of the listed tools, "args": object matching the tool's parameters, "rationale": string}]} with at most ${DECISION_ACTIONS_MAX} actions. Name only tokens of tradableTokens, by their exact symbol, and amounts the acting role's wallet holds. Answer with the JSON only.`;

/**
 * Phase 6: the decision as validated JSON (one repair allowed); a human-directed company keeps its own directive.
 * Where the model has strict structured output the schema (the tools' parameters among it) goes there, else in the
 * message.
 */
export async function extractDecision(
  rec: RoundRecorder,
  inputs: RoundInputs,
  synthesis: string,
): Promise<{ directive: string; actions: DecisionAction[] }> {
  const { company, context } = inputs;
  const actionTools = inputs.tools.filter((tool) => tool.kind === 'action');
  const actionSpecs = specsOf(actionTools);
  const roles = inputs.active.map((a) => a.role);
  const validate = decisionValidator(
    actionTools.map((tool) => tool.name),
    roles,
  );
  const schema = decisionAnswerSchema(actionTools, roles);
  const messages = [
    system(EXTRACTION_INSTRUCTIONS),
    user({ synthesis, situation: extractionView(inputs), tools: actionSpecs }),
  ];
  const task: ModelTask = { phase: 'extraction', context, synthesis, tools: actionSpecs };
  let extracted = await rec.ask('jsonExtraction', company, task, messages, { json: true, schema });
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
      { json: true, schema },
    );
    decision = validate(extracted.content);
    if (!decision.ok) {
      throw new PhaseError('extraction', `the decision JSON is invalid after one repair: ${decision.error}`);
    }
  }
  // The valid actions are kept; each invalid one is refused with its reason, in the phase's notes.
  for (const r of decision.refused) {
    rec.note(`refused ${r.role ?? '?'} ${r.tool ?? '?'} (actions[${r.index}]): ${r.reason}`);
  }
  const humanDirective = company.ceoPrompt ?? company.masterDirective;
  const directive =
    company.autonomyLevel === 'HUMAN_DIRECTED' && humanDirective ? humanDirective : decision.value.directive;
  return { directive, actions: decision.value.actions };
}

function ceoInstructions(company: CompanyRow): string {
  const name = JSON.stringify(company.name);
  const owner = ownerDirective(company);
  const pick = `Name each action with the role that runs it, one of the tools that role may use (situation.tools), exact token symbols, and amounts its wallet holds within what the limits leave; do not repeat an action the last rounds refused unless what refused it changed. ${DATA_NOT_INSTRUCTIONS}`;
  switch (company.autonomyLevel) {
    case 'HUMAN_DIRECTED':
      return `You are the CEO of the company ${name}. Your directive is set by the company's human owner and you follow it exactly: ${JSON.stringify(owner?.directive ?? 'keep the company steady')}. Choose only the actions that carry it out. ${pick}`;
    case 'STRATEGY_AUTONOMOUS':
      return `You are the CEO of the company ${name}. The owner's strategy is: ${JSON.stringify(owner?.directive ?? 'grow the company')}. Within it, choose the tactics: write this round's directive and pick the actions. ${pick}`;
    default:
      return `You are the CEO of the company ${name}, fully autonomous: set the strategy and the tactics. Write this round's directive and pick the actions. ${pick}`;
  }
}

function parseRoleAnswer(content: string): Required<RoleAnswer> {
  try {
    // A model's text is outside text: stored actions and directives must never hold what PostgreSQL refuses.
    const value = storableJson(withoutNulls(JSON.parse(content))) as RoleAnswer;
    const refused = (Array.isArray(value?.refused) ? value.refused : []).filter(
      (r) => typeof r?.tool === 'string' && typeof r.reason === 'string',
    );
    if (!Array.isArray(value?.proposals)) return { proposals: [], refused };
    const proposals = value.proposals
      .filter(
        (p) =>
          p && typeof p.tool === 'string' && typeof p.args === 'object' && p.args !== null && !Array.isArray(p.args),
      )
      .map((p) => ({ tool: p.tool, args: p.args, rationale: typeof p.rationale === 'string' ? p.rationale : '' }));
    return { proposals, refused };
  } catch {
    return { proposals: [], refused: [] };
  }
}

/** Runs a read for a role, as an `execute_tool` span under the phase when the round's recorder is given. */
export async function runTool(
  deps: EngineDeps,
  tool: Tool,
  company: CompanyRow,
  role: string,
  args: Record<string, unknown>,
  rec?: Pick<RoundRecorder, 'phaseSpan'>,
): Promise<string> {
  const traced = rec
    ? toolSpan(deps.tracer ?? trace.getTracer('ai-economy.engine'), rec.phaseSpan, tool, {
        role,
        companyId: company.id,
      })
    : undefined;
  try {
    const result = await tool.run({ deps, company, role, args });
    traced?.end('executed');
    return result;
  } catch (err) {
    const text = errorText(err);
    traced?.end('failed', text);
    return `failed: ${text}`;
  }
}
