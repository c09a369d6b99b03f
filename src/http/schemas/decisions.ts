// Schemas of the decision routes (docs/api/decisions.md "Decision round", "Agent budget entry", "Decision verification").
import { Type } from 'typebox';
import { Hash32, IsoTimestamp, internalOk, Nullable, StringEnum } from './common.ts';

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

export const DecisionResponse = internalOk(
  Type.Object({
    company: Type.Object({ id: Type.String(), slug: Type.String(), name: Type.String() }),
    round: DecisionRound,
    deliberation: Type.Object(
      {
        recorded: Type.Boolean({
          description:
            'False for a round recorded before proposals and reasoning were kept, or one that stopped before the CEO answered',
        }),
        pruned: Type.Boolean({
          description:
            "The round's details were pruned (older than DECISION_DETAIL_RETENTION_DAYS): its proposals and reasoning are no longer kept",
        }),
        proposals: Type.Array(
          Type.Object({
            role: Type.String({ description: 'The C-suite agent that proposed it (CFO, CMO, CTO, CRO, ...)' }),
            tool: Type.String(),
            args: Type.Record(Type.String(), Type.Unknown()),
            rationale: Type.String({ description: "The agent's reason, condensed to 500 characters" }),
            result: Nullable(
              Type.String({ description: 'What a read proposal found, condensed to 1,000 characters; null otherwise' }),
            ),
          }),
          { description: "The C-suite's proposals to the CEO, in the round's order (at most 2 an agent)" },
        ),
        ceoReasoning: Nullable(
          Type.String({
            description:
              "The CEO's reasoning over the proposals (the synthesis its decision was extracted from), up to 4,000 characters; a model's text",
          }),
        ),
      },
      { description: 'What came before the decision: the proposals and how the CEO weighed them' },
    ),
  }),
);

export const VerificationResponse = internalOk(
  Type.Object({
    decisionId: Type.String(),
    decisionHash: Nullable(Type.String()),
    anchoredTxHash: Nullable(Type.String()),
    anchoredAt: Type.Optional(IsoTimestamp),
    anchoredBlock: Type.Optional(
      Type.Integer({ description: 'The block of the anchoring transaction (verified through the anchor contract)' }),
    ),
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
    merkle: Type.Optional(
      Type.Object(
        {
          companyKey: Type.String({ pattern: '^0x[0-9a-f]{64}$' }),
          root: Type.String({ pattern: '^0x[0-9a-f]{64}$' }),
          proof: Type.Array(Type.String({ pattern: '^0x[0-9a-f]{64}$' })),
        },
        {
          description:
            "For a round anchored in a batch by Merkle root: anyone checks it with the anchor contract's anchoredAt(companyKey, decisionHash, proof), which answers the anchoring block's timestamp (0 when not anchored)",
        },
      ),
    ),
  }),
);

export const DecisionParams = Type.Object({ decisionId: Type.String({ minLength: 1, maxLength: 64 }) });
