// Schemas of the decision routes (docs/api/decisions.md "Decision round", "Agent budget entry", "Decision verification").
import { Type } from 'typebox';
import { IsoTimestamp, internalOk, Nullable, StringEnum } from './common.ts';

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

const BudgetEntry = Type.Object({
  role: Type.String(),
  agentId: Type.String(),
  allocatedBudget: Type.Number({ description: 'USD' }),
  spentBudget: Type.Number(),
  llmCalls: Type.Integer(),
  llmCost: Type.Number(),
  scrapeCalls: Type.Integer(),
  scrapeCost: Type.Number(),
  chainReads: Type.Integer(),
  chainReadCost: Type.Number(),
  refused: Type.Array(Type.Object({ tool: Type.String(), reason: Type.String() })),
});

export const DecisionsResponse = internalOk(
  Type.Object({
    company: Type.Object({ id: Type.String(), name: Type.String(), category: Type.String() }),
    rounds: Type.Array(DecisionRound),
    latestBudget: Type.Array(BudgetEntry),
  }),
);

export const RoundResponse = internalOk(DecisionRound);

export const VerificationResponse = internalOk(
  Type.Object({
    decisionId: Type.String(),
    decisionHash: Nullable(Type.String()),
    anchoredTxHash: Nullable(Type.String()),
    anchoredAt: Type.Optional(IsoTimestamp),
    onChainVerified: Type.Boolean(),
    verificationMethod: StringEnum([
      'erc8004_validation',
      'decision_anchor',
      'db_only',
      'not_anchored',
      'not_verified',
    ] as const),
    explorerUrl: Type.Optional(
      Nullable(
        Type.String({
          format: 'uri',
          description:
            "The anchoring transaction on the chain's block explorer (present when verified through the anchor contract); null when the chain has no explorer",
        }),
      ),
    ),
    reason: Type.Optional(Type.String()),
  }),
);

export const DecisionParams = Type.Object({ decisionId: Type.String({ minLength: 1, maxLength: 64 }) });
