// One decision round of one company, in seven phases (SPEC.md "decision pipeline"):
//   1 context     the company, its agents, treasury and token market, from the database and the chain
//   2 brief       a model writes the round's brief
//   3 scrape      the market sources the company's tools may read, summarised by a model
//   4 roles       each active C-suite agent proposes actions within its own budget (reads run at once)
//   5 synthesis   the CEO model turns the proposals into a directive, as the autonomy level allows
//   6 extraction  the decision as strict JSON, validated against its schema and repaired once
//   7 execution   allowed actions run; the decision is hashed, recorded, announced and anchored on-chain
// Each phase is recorded with its duration, tokens, cost and calls. The round row is RUNNING from the start (a
// partial unique index keeps one per company), then COMPLETE, or FAILED with the phase and the error kept.
import { createId } from '@paralleldrive/cuid2';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { type Address, formatUnits } from 'viem';
import { describeChainError } from '../../chain/revert.ts';
import { chainDate } from '../../chain/time.ts';
import {
  AGENT_ROLES,
  AGENT_ROUND_BUDGET_MICRO_USD,
  DECISION_ACTIONS_MAX,
  type ENGINE_CONFIG_KEYS,
} from '../../constants.ts';
import { uniqueViolation } from '../../db/errors.ts';
import { agents, companies } from '../../db/schema/companies.ts';
import { type DecisionAction, decisionBudgets, decisionRounds, type PhaseRecord } from '../../db/schema/decisions.ts';
import { conflict } from '../../errors.ts';
import { storableJson } from '../../text.ts';
import type { Deps } from '../deps.ts';
import { publishEvent } from '../events/store.ts';
import { readTokenMarket, tokenTradeStats } from '../tokens/queries.ts';
import { graduationProgress } from '../tokens/views.ts';
import { decisionValidator } from './decision-schema.ts';
import { decisionHash } from './hash.ts';
import { modelFor } from './models/catalog.ts';
import type {
  ChatMessage,
  EngineModelId,
  ModelProvider,
  ModelTask,
  Role,
  RoleAnswer,
  RoundContext,
} from './models/types.ts';
import { enabledTools, readUsdcBalance, type Tool, toolNamed, toolSpec } from './tools.ts';

export type EngineDeps = Pick<Deps, 'chain' | 'database' | 'now'> & {
  models: ModelProvider;
  log?: { warn(o: object, m: string): void };
};

type CompanyRow = typeof companies.$inferSelect;
type PhaseKey = (typeof ENGINE_CONFIG_KEYS)[number];

export class PhaseError extends Error {
  constructor(
    readonly phase: string,
    message: string,
  ) {
    super(message);
  }
}

/** Starts a round: the next cycle, RUNNING. 409 CONFLICT while another round of the company runs. */
export async function startRound(c: EngineDeps, companyId: string, trigger: 'SCHEDULED' | 'MANUAL') {
  for (let attempt = 0; ; attempt++) {
    try {
      const [row] = await c.database.db
        .insert(decisionRounds)
        .values({
          id: createId(),
          companyId,
          trigger,
          cycle: sql`(select coalesce(max(${decisionRounds.cycle}), 0) + 1 from ${decisionRounds} where ${decisionRounds.companyId} = ${companyId})`,
          heartbeatAt: new Date(c.now()),
          createdAt: new Date(c.now()),
        })
        .returning();
      return row!;
    } catch (err) {
      const constraint = uniqueViolation(err);
      if (constraint === 'decision_rounds_one_running_unique') {
        throw conflict(`A decision round of company ${companyId} is already running`);
      }
      // Two rounds took the same cycle number at once; the loser's partner is RUNNING, so this retry conflicts.
      if (constraint === 'decision_rounds_company_cycle_unique' && attempt < 2) continue;
      throw err;
    }
  }
}

interface Budget {
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

interface Proposal {
  role: Role;
  tool: string;
  args: Record<string, unknown>;
  rationale: string;
  result?: string;
}

const micro = (usd: number) => Math.round(usd * 1_000_000);

/** Runs the round to its end; returns the finished row. Never throws for a failure inside the pipeline. */
export async function runRound(c: EngineDeps, round: typeof decisionRounds.$inferSelect) {
  const db = c.database.db;
  const started = c.now();
  const phases: PhaseRecord[] = [];
  let phase = 'context';
  let current: PhaseRecord | undefined;
  /** micro-USD of every model call of the round, the agents' included. */
  let modelCost = 0;

  const enter = async (name: string) => {
    phase = name;
    current = { phase: name, durationMs: 0, tokens: 0, cost: 0, calls: 0, models: [], configuredModels: [] };
    await db
      .update(decisionRounds)
      .set({ phase: name, phases, heartbeatAt: new Date(c.now()) })
      .where(eq(decisionRounds.id, round.id));
    return c.now();
  };
  const leave = (since: number) => {
    current!.durationMs = c.now() - since;
    phases.push(current!);
  };
  const ask = async (key: PhaseKey, company: CompanyRow, task: ModelTask, messages: ChatMessage[], json = false) => {
    const model: EngineModelId = modelFor(company.enginePreset, company.engineConfig, key);
    const result = await c.models.complete({ model, messages, task, json });
    current!.calls++;
    current!.tokens += result.promptTokens + result.completionTokens;
    current!.cost += micro(result.cost);
    modelCost += micro(result.cost);
    // What answered, apart from what was chosen: a model without an endpoint is answered by the built-in one.
    if (!current!.models.includes(result.model)) current!.models.push(result.model);
    if (!current!.configuredModels!.includes(model)) current!.configuredModels!.push(model);
    return result;
  };

  try {
    // 1. context
    let t = await enter('context');
    const [company] = await db.select().from(companies).where(eq(companies.id, round.companyId));
    if (!company) throw new PhaseError('context', `company ${round.companyId} no longer exists`);
    const team = await db
      .select({ id: agents.id, role: agents.role, name: agents.name, strategy: agents.strategy })
      .from(agents)
      .where(and(eq(agents.companyId, company.id), eq(agents.status, 'ACTIVE')));
    const active = team.filter((a): a is typeof a & { role: Role } =>
      (AGENT_ROLES as readonly string[]).includes(a.role ?? ''),
    );
    const context = await readContext(c, company, active, round.cycle);
    const tools = enabledTools(company.toolkitConfig ?? null);
    const specs = tools.map(toolSpec);
    leave(t);

    // 2. brief
    t = await enter('brief');
    const brief = (
      await ask('briefGeneration', company, { phase: 'brief', context }, [
        system(
          'You are the chief of staff of an AI-run company. Write a short brief (at most 120 words) of where the company stands and what matters this round.',
        ),
        user(context),
      ])
    ).content.trim();
    leave(t);

    // 3. scrape
    t = await enter('scrape');
    const sources: { name: string; data: unknown }[] = [];
    for (const tool of tools.filter((x) => x.kind === 'market_read')) {
      const args =
        tool.name === 'scan_token_trades' ? { hours: 24 } : tool.name === 'scan_platform_tokens' ? { limit: 5 } : {};
      sources.push({ name: tool.name, data: await runTool(c, tool, company, 'CEO', args) });
      current!.cost += tool.cost;
    }
    const market =
      sources.length === 0
        ? 'No market source is enabled for this company.'
        : (
            await ask('scrapeSummary', company, { phase: 'scrape', context, sources }, [
              system('Summarise these market readings for the executive team in at most 80 words.'),
              user(sources),
            ])
          ).content.trim();
    leave(t);

    // 4. roles
    t = await enter('roles');
    const allocated =
      AGENT_ROUND_BUDGET_MICRO_USD[company.enginePreset as keyof typeof AGENT_ROUND_BUDGET_MICRO_USD] ?? 0;
    const budgets = new Map<string, Budget>(
      active.map((a) => [
        a.role,
        {
          agentId: a.id,
          role: a.role,
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
    const proposals = (
      await Promise.all(
        active.map(async (agent) => {
          const budget = budgets.get(agent.role)!;
          const task: ModelTask = { phase: 'role', context, role: agent.role, brief, market, tools: specs };
          const answer = await ask(
            'roleExecution',
            company,
            task,
            [
              system(
                `You are the ${agent.role} of ${company.name}, strategy ${agent.strategy.preset}. Propose at most 2 actions as JSON {"proposals":[{"tool","args","rationale"}]} using only the tools listed; each tool has a cost in USD and your budget this round is ${allocated / 1e6} USD.`,
              ),
              user({ brief, market, tools: specs }),
            ],
            true,
          );
          budget.llmCalls++;
          budget.llmCost += micro(answer.cost);
          budget.spent += micro(answer.cost);
          const parsed = parseRoleAnswer(answer.content);
          const out: Proposal[] = [];
          for (const p of parsed.slice(0, 2)) {
            const tool = toolNamed(p.tool);
            if (!tool || !tools.includes(tool)) {
              budget.refused.push({ tool: p.tool, reason: tool ? 'tool disabled for this company' : 'unknown tool' });
              continue;
            }
            if (tool.kind === 'action') {
              out.push({ role: agent.role, tool: tool.name, args: p.args, rationale: p.rationale });
              continue;
            }
            if (budget.spent + tool.cost > budget.allocated) {
              budget.refused.push({ tool: tool.name, reason: 'over budget' });
              continue;
            }
            budget.spent += tool.cost;
            if (tool.kind === 'chain_read') {
              budget.chainReads++;
              budget.chainReadCost += tool.cost;
            } else {
              budget.scrapeCalls++;
              budget.scrapeCost += tool.cost;
            }
            out.push({
              role: agent.role,
              tool: tool.name,
              args: p.args,
              rationale: p.rationale,
              result: await runTool(c, tool, company, agent.role, p.args),
            });
          }
          return out;
        }),
      )
    ).flat();
    leave(t);

    // 5. synthesis
    t = await enter('synthesis');
    const synthesisTask: ModelTask = { phase: 'synthesis', context, brief, proposals };
    const synthesis = (
      await ask('ceoSynthesis', company, synthesisTask, [
        system(ceoInstructions(company)),
        user({ brief, market, proposals }),
      ])
    ).content.trim();
    leave(t);

    // 6. extraction
    t = await enter('extraction');
    const actionSpecs = specs.filter((s) => toolNamed(s.name)?.kind === 'action');
    const validate = decisionValidator(
      tools.filter((tool) => tool.kind === 'action').map((tool) => tool.name),
      active.map((a) => a.role),
    );
    let extracted = await ask(
      'jsonExtraction',
      company,
      { phase: 'extraction', context, synthesis, tools: actionSpecs },
      [system(EXTRACTION_INSTRUCTIONS), user({ synthesis, tools: actionSpecs })],
      true,
    );
    let decision = validate(extracted.content);
    if (!decision.ok) {
      extracted = await ask(
        'jsonExtraction',
        company,
        { phase: 'extraction', context, synthesis, tools: actionSpecs, repairOf: extracted.content },
        [
          system(EXTRACTION_INSTRUCTIONS),
          user({ synthesis, tools: actionSpecs }),
          { role: 'assistant', content: extracted.content },
          { role: 'user', content: `That answer is invalid: ${decision.error}. Answer again with valid JSON only.` },
        ],
        true,
      );
      decision = validate(extracted.content);
      if (!decision.ok)
        throw new PhaseError('extraction', `the decision JSON is invalid after one repair: ${decision.error}`);
    }
    const humanDirective = company.ceoPrompt ?? company.masterDirective;
    const directive =
      company.autonomyLevel === 'HUMAN_DIRECTED' && humanDirective ? humanDirective : decision.value.directive;
    const actions: DecisionAction[] = decision.value.actions;
    leave(t);

    // 7. execution
    t = await enter('execution');
    const executed: string[] = [];
    for (const action of actions) {
      const tool = toolNamed(action.tool)!;
      const budget = budgets.get(action.role)!;
      if (budget.spent + tool.cost > budget.allocated) {
        budget.refused.push({ tool: tool.name, reason: 'over budget' });
        continue;
      }
      budget.spent += tool.cost;
      budget.toolCalls++;
      executed.push(`${action.role} ${tool.name}: ${await runTool(c, tool, company, action.role, action.args)}`);
    }
    const hash = decisionHash({ companyId: company.id, cycle: round.cycle, directive, actions });
    leave(t);
    return await finish(c, round, company, {
      phases,
      directive,
      actions,
      executed,
      hash,
      budgets: [...budgets.values()],
      totalDurationMs: c.now() - started,
      modelCost,
    });
  } catch (err) {
    const failedPhase = err instanceof PhaseError ? err.phase : phase;
    if (current && !phases.includes(current)) phases.push({ ...current, error: errorText(err) });
    const [failed] = await db
      .update(decisionRounds)
      .set({
        status: 'FAILED',
        phase: failedPhase,
        error: errorText(err),
        phases,
        totalDurationMs: c.now() - started,
        llmTokensUsed: phases.reduce((n, p) => n + p.tokens, 0),
        llmCost: modelCost,
        finishedAt: new Date(c.now()),
      })
      .where(and(eq(decisionRounds.id, round.id), eq(decisionRounds.status, 'RUNNING')))
      .returning();
    c.log?.warn({ roundId: round.id, phase: failedPhase, err }, 'decision round failed');
    return failed ?? round;
  }
}

/** A failure as stored with the round: reverts decoded, storable, bounded. */
const errorText = (err: unknown) => describeChainError(err);
const system = (content: string): ChatMessage => ({ role: 'system', content });
const user = (data: unknown): ChatMessage => ({ role: 'user', content: JSON.stringify(data) });

const EXTRACTION_INSTRUCTIONS = `Extract the CEO's decision as one JSON object {"directive": string, "actions": [{"role": one of CFO|CTO|CMO|COO|CSO|CISO|CRO, "tool": one of the listed tools, "args": object matching the tool's parameters, "rationale": string}]} with at most ${DECISION_ACTIONS_MAX} actions. Answer with the JSON only.`;

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

async function runTool(c: EngineDeps, tool: Tool, company: CompanyRow, role: string, args: Record<string, unknown>) {
  try {
    return await tool.run({ deps: c, company, role, args });
  } catch (err) {
    return `failed: ${errorText(err)}`;
  }
}

/** Phase 1: the company's state; chain reads that fail leave their fields null rather than fail the round. */
async function readContext(
  c: EngineDeps,
  company: CompanyRow,
  team: { id: string; role: Role; name: string; strategy: { preset: string } }[],
  cycle: number,
): Promise<RoundContext> {
  const db = c.database.db;
  // Trades carry their block's time: the day is counted back from the chain's clock (the server's when it is down).
  const chainNow = await chainDate(c.chain.publicClient).catch(() => new Date(c.now()));
  const since = new Date(chainNow.getTime() - 86_400_000);
  const launched = company.tokenStatus !== 'PRE_PUBLIC' && company.tokenAddress;
  const [market, treasury, volume, [last]] = await Promise.all([
    launched && c.chain.contracts.tokenLauncher
      ? readTokenMarket(c, company.tokenAddress as Address).catch(() => undefined)
      : undefined,
    company.treasuryAddress && c.chain.contracts.usdc
      ? readUsdcBalance(c, company.treasuryAddress as Address).catch(() => undefined)
      : undefined,
    tokenTradeStats(db, company.id, since),
    db
      .select({ directive: decisionRounds.directive })
      .from(decisionRounds)
      .where(and(eq(decisionRounds.companyId, company.id), inArray(decisionRounds.status, ['COMPLETE'])))
      .orderBy(desc(decisionRounds.cycle))
      .limit(1),
  ]);
  return {
    company: {
      id: company.id,
      name: company.name,
      slug: company.slug,
      category: company.category,
      status: company.status,
      autonomyLevel: company.autonomyLevel as RoundContext['company']['autonomyLevel'],
      ceoPrompt: company.ceoPrompt,
      masterDirective: company.masterDirective,
      platformScore: company.platformScore,
    },
    treasuryUsdc: treasury === undefined ? null : formatUnits(treasury, 6),
    token: {
      status: company.tokenStatus as RoundContext['token']['status'],
      symbol: company.tokenStatus === 'PRE_PUBLIC' ? null : company.tokenSymbol,
      price: market ? formatUnits(market.price, 6) : null,
      marketCap: market ? formatUnits(market.marketCap, 6) : null,
      graduationProgress: market
        ? graduationProgress(company.tokenStatus, market.marketCap, company.tokenGraduationThreshold ?? 0n)
        : company.tokenStatus === 'GRADUATED'
          ? 100
          : 0,
      volume24hUsdc: formatUnits(volume.volume, 6),
      trades24h: volume.trades,
    },
    agents: team.map((a) => ({ id: a.id, role: a.role, name: a.name, strategy: a.strategy.preset })),
    lastDirective: last?.directive ?? null,
    cycle,
  };
}

interface Outcome {
  phases: PhaseRecord[];
  directive: string;
  actions: DecisionAction[];
  executed: string[];
  hash: `0x${string}`;
  budgets: Budget[];
  totalDurationMs: number;
  /** micro-USD of the round's model calls */
  modelCost: number;
}

/** Records the finished round, its budgets and the agents' counters, and announces it, in one transaction. */
async function finish(c: EngineDeps, round: typeof decisionRounds.$inferSelect, company: CompanyRow, o: Outcome) {
  const db = c.database.db;
  const llmTokensUsed = o.phases.reduce((n, p) => n + p.tokens, 0);
  return db.transaction(async (tx) => {
    const [done] = await tx
      .update(decisionRounds)
      .set({
        status: 'COMPLETE',
        phase: 'execution',
        phases: o.phases,
        directive: o.directive,
        actions: o.actions,
        actionsExecuted: o.executed,
        decisionHash: o.hash,
        totalDurationMs: o.totalDurationMs,
        llmTokensUsed,
        llmCost: o.modelCost,
        finishedAt: new Date(c.now()),
      })
      .where(and(eq(decisionRounds.id, round.id), eq(decisionRounds.status, 'RUNNING')))
      .returning();
    // Failed meanwhile (its heartbeat was judged stale): keep that outcome.
    if (!done) {
      const [row] = await tx.select().from(decisionRounds).where(eq(decisionRounds.id, round.id));
      return row!;
    }
    if (o.budgets.length > 0) {
      await tx.insert(decisionBudgets).values(
        o.budgets.map((b) => ({
          roundId: round.id,
          agentId: b.agentId,
          role: b.role,
          allocated: b.allocated,
          spent: b.spent,
          llmCalls: b.llmCalls,
          llmCost: b.llmCost,
          scrapeCalls: b.scrapeCalls,
          scrapeCost: b.scrapeCost,
          chainReads: b.chainReads,
          chainReadCost: b.chainReadCost,
          toolCalls: b.toolCalls,
          refused: b.refused,
        })),
      );
      const counters = sql.join(
        o.budgets.map(
          (b) =>
            sql`(${b.agentId}::text, ${b.llmCalls}::integer, ${b.toolCalls + b.chainReads + b.scrapeCalls}::integer)`,
        ),
        sql`, `,
      );
      await tx.execute(sql`
        update agents set decisions_count = decisions_count + 1, llm_calls_total = llm_calls_total + v.llm,
          tool_calls_total = tool_calls_total + v.tools, last_active_at = ${new Date(c.now()).toISOString()}::timestamptz
        from (values ${counters}) as v (id, llm, tools)
        where agents.id = v.id`);
    }
    await publishEvent(tx, {
      type: 'decision',
      companyId: company.id,
      data: {
        roundId: round.id,
        cycle: round.cycle,
        directive: o.directive,
        actionsCount: o.actions.length,
        decisionHash: o.hash,
      },
    });
    return done;
  });
}
