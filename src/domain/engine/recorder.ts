// What a decision round records of itself while it runs: each phase's duration, tokens, cost, calls and the models
// that answered, kept on the RUNNING round row as the round enters each phase (its heartbeat too).
import { eq } from 'drizzle-orm';
import type { ENGINE_CONFIG_KEYS } from '../../constants.ts';
import type { companies } from '../../db/schema/companies.ts';
import { decisionRounds, type PhaseRecord } from '../../db/schema/decisions.ts';
import type { EngineDeps } from './context.ts';
import { modelFor } from './models/catalog.ts';
import type { ChatMessage, ChatResult, EngineModelId, ModelTask } from './models/types.ts';

type CompanyRow = typeof companies.$inferSelect;
type PhaseKey = (typeof ENGINE_CONFIG_KEYS)[number];

/** USD as integer micro-USD, the unit every recorded cost is kept in. */
export const microUsd = (usd: number) => Math.round(usd * 1_000_000);

export interface RoundRecorder {
  /** The phase the round is in (or failed in). */
  readonly phase: string;
  /** The phases finished so far, in order. */
  readonly phases: PhaseRecord[];
  /** micro-USD of every model call of the round, the agents' included. */
  readonly modelCost: number;
  /** Runs `run` as phase `name`: marks the round's row, then records the phase once `run` returns. */
  step<T>(name: string, run: () => Promise<T>): Promise<T>;
  /** Asks the model the company's engine picks for `key`, counting the call, its tokens and cost in the phase. */
  ask(
    key: PhaseKey,
    company: CompanyRow,
    task: ModelTask,
    messages: ChatMessage[],
    json?: boolean,
  ): Promise<ChatResult>;
  /** Adds a cost that is not a model call (a paid market read) to the phase. */
  addCost(costMicroUsd: number): void;
  /** The phases with the one that failed (if it had started) and its error, for the FAILED row. */
  failedPhases(error: string): PhaseRecord[];
}

export function createRecorder(deps: EngineDeps, roundId: string): RoundRecorder {
  const db = deps.database.db;
  const phases: PhaseRecord[] = [];
  let phase = 'context';
  let current: PhaseRecord | undefined;
  let modelCost = 0;
  const open = () => {
    if (!current) throw new Error(`no phase is open in round ${roundId}`);
    return current;
  };
  return {
    get phase() {
      return phase;
    },
    phases,
    get modelCost() {
      return modelCost;
    },
    async step(name, run) {
      phase = name;
      current = { phase: name, durationMs: 0, tokens: 0, cost: 0, calls: 0, models: [], configuredModels: [] };
      await db
        .update(decisionRounds)
        .set({ phase: name, phases, heartbeatAt: new Date(deps.now()) })
        .where(eq(decisionRounds.id, roundId));
      const since = deps.now();
      const result = await run();
      current.durationMs = deps.now() - since;
      phases.push(current);
      return result;
    },
    async ask(key, company, task, messages, json = false) {
      const model: EngineModelId = modelFor(company.enginePreset, company.engineConfig, key);
      // The roles phase offers its tools as function calls too (an endpoint that uses them answers with tool calls).
      const tools = task.phase === 'role' ? { tools: task.tools } : {};
      const result = await deps.models.complete({ model, messages, task, json, ...tools });
      const record = open();
      record.calls++;
      record.tokens += result.promptTokens + result.completionTokens;
      record.cost += microUsd(result.cost);
      modelCost += microUsd(result.cost);
      // What answered, apart from what was chosen: a model without an endpoint is answered by the built-in one.
      if (!record.models.includes(result.model)) record.models.push(result.model);
      if (!record.configuredModels!.includes(model)) record.configuredModels!.push(model);
      return result;
    },
    addCost(costMicroUsd) {
      open().cost += costMicroUsd;
    },
    failedPhases(error) {
      return current && !phases.includes(current) ? [...phases, { ...current, error }] : [...phases];
    },
  };
}
