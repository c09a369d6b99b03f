// What a decision round records of itself while it runs, and its hold on the round row. Each phase's duration,
// tokens, cost (what was billed, failed attempts included), calls and the models that answered are kept on the
// RUNNING row as the round enters each phase. Every write is made only while the row is still RUNNING, and so is
// every heartbeat (at each phase and before every model attempt): once the row is not RUNNING (the stale-round job
// failed it, or another process finished it) the round stops at its next step and does nothing more.
import { type Span, SpanStatusCode, type Tracer, trace } from '@opentelemetry/api';
import type { ENGINE_CONFIG_KEYS } from '../../constants.ts';
import type { companies } from '../../db/schema/companies.ts';
import type { PhaseRecord } from '../../db/schema/decisions.ts';
import { allocationFor, type Budget, chargeModelCall } from './budget.ts';
import { condense } from './condense.ts';
import type { EngineDeps } from './context.ts';
import { fallbacksFor, modelFor, PHASE_MAX_TOKENS } from './models/catalog.ts';
import {
  type AnswerSchema,
  type ChatMessage,
  type ChatResult,
  type EngineModelId,
  ModelError,
  type ModelTask,
  type ModelUsage,
  type Role,
  type ToolSpec,
} from './models/types.ts';
import { beatRound, enterPhase } from './rounds.ts';
import { phaseSpan } from './tracing.ts';

type CompanyRow = typeof companies.$inferSelect;
type PhaseKey = (typeof ENGINE_CONFIG_KEYS)[number];

/** USD as integer micro-USD, the unit every recorded cost is kept in. */
export const microUsd = (usd: number) => Math.round(usd * 1_000_000);

/** Notes a phase keeps at most, each of at most NOTE_MAX characters. */
const NOTES_MAX = 20;
const NOTE_MAX = 500;

const NOTHING_SPENT: ModelUsage = { promptTokens: 0, completionTokens: 0, cost: 0 };

/** Why a round stopped before its end without failing by itself. */
export class RoundStopped extends Error {
  constructor(
    readonly reason: 'not-running' | 'shutdown',
    message: string,
  ) {
    super(message);
    this.name = 'RoundStopped';
  }
}

export interface AskOptions {
  json?: boolean;
  schema?: AnswerSchema;
  tools?: ToolSpec[];
  /** The agent whose budget the call is charged to (the roles phase). */
  budget?: Budget;
  /** The agent the call is for (the roles phase), named on its span. */
  role?: Role;
}

export interface RoundRecorder {
  /** The phase the round is in (or failed in). */
  readonly phase: string;
  /** The phases finished so far, in order. */
  readonly phases: PhaseRecord[];
  /** micro-USD of every model call of the round, the agents' included. */
  readonly modelCost: number;
  /** Aborted when the round must stop (its row is no longer RUNNING, or the process is stopping). */
  readonly signal: AbortSignal;
  /** The round's span; each phase's is its child, each model call's a child of its phase's. */
  readonly span: Span;
  /** The span of the phase running (the round's between phases): the parent of a tool's `execute_tool` span. */
  readonly phaseSpan: Span;
  /**
   * Moves the heartbeat, while the row is RUNNING; otherwise stops the round (RoundStopped). Calls made while one
   * is on its way share it.
   */
  beat(): Promise<void>;
  /** Runs `run` as phase `name`: marks the round's row, then records the phase once `run` returns. */
  step<T>(name: string, run: () => Promise<T>): Promise<T>;
  /**
   * Asks the model the company's engine picks for `key`, counting the call, its tokens and cost in the phase (and
   * in `budget`, when given), whether it answers or fails after billed attempts.
   */
  ask(
    key: PhaseKey,
    company: CompanyRow,
    task: ModelTask,
    messages: ChatMessage[],
    options?: AskOptions,
  ): Promise<ChatResult>;
  /** Keeps a note of what went wrong in the phase without failing it. */
  note(text: string): void;
  /** Adds a cost that is not a model call (a paid market read) to the phase. */
  addCost(costMicroUsd: number): void;
  /** The phases with the one that failed (if it had started) and its error, for the FAILED row. */
  failedPhases(error: string): PhaseRecord[];
}

export function createRecorder(
  deps: EngineDeps,
  roundId: string,
  options: { signal?: AbortSignal; tracer?: Tracer; span?: Span } = {},
): RoundRecorder {
  const db = deps.database.db;
  const phases: PhaseRecord[] = [];
  const stopper = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stopper.signal]) : stopper.signal;
  const tracer = options.tracer ?? trace.getTracer('ai-economy.engine');
  const span = options.span ?? tracer.startSpan('decision round');
  let phase = 'context';
  let current: PhaseRecord | undefined;
  let currentSpan: Span | undefined;
  let modelCost = 0;
  let beating: Promise<void> | undefined;
  // While a call waits (for a provider slot, or out a Retry-After) the heartbeat moves four times a stale period.
  const waitBeatMs = Math.max(100, Math.min(30_000, Math.floor((deps.config?.roundStaleMs ?? 600_000) / 4)));

  const stopped = () => {
    const err = new RoundStopped(
      'not-running',
      `round ${roundId} is no longer RUNNING (failed as stale or finished elsewhere): it stops here`,
    );
    stopper.abort(err);
    return err;
  };
  const throwIfAborted = () => {
    if (signal.aborted) throw signal.reason;
  };

  const beat = async () => {
    throwIfAborted();
    beating ??= (async () => {
      if (!(await beatRound(db, roundId, new Date(deps.now())))) throw stopped();
    })().finally(() => {
      beating = undefined;
    });
    await beating;
  };

  const record = (
    usage: { promptTokens: number; completionTokens: number; cost: number; costUnknown?: boolean },
    estimated: boolean,
  ) => {
    const target = open();
    if (usage.costUnknown) target.costUnknown = true;
    target.calls++;
    target.tokens += usage.promptTokens + usage.completionTokens;
    const cost = microUsd(usage.cost);
    target.cost += cost;
    modelCost += cost;
    if (estimated) target.usageEstimated = true;
    return cost;
  };
  const open = () => {
    if (!current) throw new Error(`no phase is open in round ${roundId}`);
    return current;
  };
  const note = (text: string) => {
    const target = open();
    target.notes ??= [];
    if (target.notes.length < NOTES_MAX) target.notes.push(condense(text, NOTE_MAX));
  };

  return {
    get phase() {
      return phase;
    },
    phases,
    get modelCost() {
      return modelCost;
    },
    signal,
    span,
    get phaseSpan() {
      return currentSpan ?? span;
    },
    beat,
    async step(name, run) {
      throwIfAborted();
      phase = name;
      current = { phase: name, durationMs: 0, tokens: 0, cost: 0, calls: 0, models: [], configuredModels: [] };
      if (!(await enterPhase(db, roundId, name, phases, new Date(deps.now())))) throw stopped();
      currentSpan = phaseSpan(tracer, span, name);
      const since = deps.now();
      try {
        const result = await run();
        current.durationMs = deps.now() - since;
        phases.push(current);
        currentSpan.setAttributes({ 'ai_economy.tokens': current.tokens, 'ai_economy.cost_usd': current.cost / 1e6 });
        return result;
      } catch (err) {
        currentSpan.setStatus({
          code: SpanStatusCode.ERROR,
          message: err instanceof Error ? err.message : String(err),
        });
        throw err;
      } finally {
        currentSpan.end();
      }
    },
    async ask(key, company, task, messages, askOptions = {}) {
      const model: EngineModelId = modelFor(company.enginePreset, company.engineConfig, key);
      const target = open();
      if (!target.configuredModels!.includes(model)) target.configuredModels!.push(model);
      // The brief, scrape, synthesis and extraction phases each have a budget the size of an agent's (the roles
      // phase charges each agent's own): a phase that spent it makes no further call.
      const phaseBudget = allocationFor(company.enginePreset);
      if (key !== 'roleExecution' && target.cost >= phaseBudget) {
        throw new Error(
          `the ${target.phase} phase spent its budget of ${phaseBudget} micro-USD this round (${target.cost} so far): no further model call`,
        );
      }
      try {
        const result = await deps.models.complete({
          model,
          messages,
          task,
          maxTokens: PHASE_MAX_TOKENS[key],
          ...(askOptions.json && { json: true }),
          ...(askOptions.schema && { schema: askOptions.schema }),
          ...(askOptions.tools && { tools: askOptions.tools }),
          signal,
          onAttempt: beat,
          onWait: beat,
          waitBeatMs,
          user: company.id,
          conversationId: roundId,
          ...(askOptions.role && { agentRole: askOptions.role }),
          ...(deps.config?.llmReasoningEffort?.[key] && { reasoning: deps.config.llmReasoningEffort[key] }),
          fallbacks: fallbacksFor(company.enginePreset, company.engineConfig, key, deps.config?.llmFallbackModels),
          ...(currentSpan && { parentSpan: currentSpan }),
        });
        const cost = record(result, result.usageEstimated === true);
        if (result.cachedTokens) target.cachedTokens = (target.cachedTokens ?? 0) + result.cachedTokens;
        if (askOptions.budget) chargeModelCall(askOptions.budget, cost);
        // What answered, apart from what was chosen: a model without an endpoint is answered by the built-in one.
        if (!target.models.includes(result.model)) target.models.push(result.model);
        if (result.finishReason === 'length') {
          note(`${model}: the answer stopped at its limit of ${PHASE_MAX_TOKENS[key]} tokens; kept as far as it went`);
        }
        return result;
      } catch (err) {
        // Failed attempts are billed too: the round and the agent pay what the endpoint charged.
        const spent: ModelUsage = (err instanceof ModelError && err.spent) || NOTHING_SPENT;
        const cost = record(spent, spent.estimated === true);
        if (askOptions.budget) chargeModelCall(askOptions.budget, cost);
        if (err instanceof ModelError && err.answeredBy && !target.models.includes(err.answeredBy)) {
          target.models.push(err.answeredBy);
        }
        throw err;
      }
    },
    note,
    addCost(costMicroUsd) {
      open().cost += costMicroUsd;
    },
    failedPhases(error) {
      return current && !phases.includes(current) ? [...phases, { ...current, error }] : [...phases];
    },
  };
}
