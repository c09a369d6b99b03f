// A decision round as every decision route answers it: its status, directive, actions, phases and hash.
import { Type } from 'typebox';
import { Hash32, IsoTimestamp, Nullable, StringEnum } from '../../schemas/common.ts';

const Phase = Type.Object({
  phase: Type.String(),
  durationMs: Type.Number(),
  tokens: Type.Number(),
  cost: Type.Number({ description: 'USD' }),
  calls: Type.Number(),
  models: Type.Array(Type.String(), {
    description: 'The models that answered the phase: model ids, or `builtin` when the built-in model answered',
  }),
  configuredModels: Type.Optional(
    Type.Array(Type.String(), {
      description:
        "The models the company's preset and engineConfig chose for the phase (a model without an endpoint is answered by the built-in one)",
    }),
  ),
  usageEstimated: Type.Optional(
    Type.Boolean({
      description:
        "Some call's token counts were estimated (text length / 4): an answer without usage, or with figures no call could have used",
    }),
  ),
  costUnknown: Type.Optional(
    Type.Boolean({
      description:
        "Some call's cost is unknown: a model no price table knows, whose endpoint did not say what it billed; `cost` holds only what is known",
    }),
  ),
  cachedTokens: Type.Optional(
    Type.Integer({
      minimum: 0,
      description:
        'Prompt tokens the providers read from their prompt caches (counted in `tokens` too), when they report them',
    }),
  ),
  notes: Type.Optional(
    Type.Array(Type.String(), {
      description:
        'What went wrong without failing the phase: a role agent whose model failed (its proposals counted as none), an answer cut off at its token limit and kept',
    }),
  ),
  error: Type.Optional(Type.String()),
});

export const DecisionRound = Type.Object({
  id: Type.String(),
  cycle: Type.Integer(),
  status: StringEnum(['RUNNING', 'COMPLETE', 'FAILED'] as const),
  ceoDecision: Type.Object({ directive: Type.String(), actions: Type.Array(Type.String()) }),
  actionsExecuted: Type.Array(Type.String()),
  companyId: Type.String(),
  actions: Type.Array(
    Type.Object({
      role: Type.String(),
      tool: Type.String(),
      args: Type.Record(Type.String(), Type.Unknown()),
      rationale: Type.String({ description: 'The reason the decision gives for the action' }),
      outcome: Type.Object({
        status: StringEnum(['done', 'refused', 'failed', 'not_run'] as const, {
          description:
            'done; refused (a veto, the budget, a trading limit: nothing signed); failed (an error, or a transaction that reverted on-chain); not_run (the round stopped before it)',
        }),
        text: Nullable(Type.String({ description: 'What it did or why not, from its line in actionsExecuted' })),
        txHash: Nullable(Hash32('The transaction it sent')),
      }),
    }),
    {
      description:
        'The decided actions as hashed ({ role, tool, args, rationale }), each with its outcome. keccak256 of the canonical JSON of { companyId, cycle, directive, actions } (without the outcomes) is `decisionHash`',
    },
  ),
  totalDurationMs: Type.Number(),
  llmTokensUsed: Type.Number(),
  createdAt: IsoTimestamp,
  trigger: StringEnum(['SCHEDULED', 'MANUAL'] as const),
  phases: Type.Array(Phase),
  decisionHash: Nullable(Type.String()),
  anchoredTxHash: Nullable(Type.String()),
  failedPhase: Type.Optional(Type.String()),
  error: Type.Optional(Nullable(Type.String())),
});

export const DecisionParams = Type.Object({ decisionId: Type.String({ minLength: 1, maxLength: 64 }) });
