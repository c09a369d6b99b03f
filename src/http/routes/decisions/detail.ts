// GET /api/decisions/{decisionId} (docs/api/decisions.md): one decision round with its company and its deliberation.
import { Type } from 'typebox';
import { getDecision } from '../../../domain/engine/queries.ts';
import { route } from '../../route.ts';
import { Nullable } from '../../schemas/common.ts';
import { DecisionParams, DecisionRound } from './round.ts';

export const Decision = Type.Object({
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
});

export default route({
  url: '/api/decisions/:decisionId',
  auth: 'none',
  tag: 'decisions',
  summary: 'One decision round by its id, with its company',
  description:
    'The round as in the company list: its directive, each action with its reason and outcome, its phases and hash. 404 for an unknown round.',
  params: DecisionParams,
  response: Decision,
  load: (deps, { params }) => getDecision(deps, params.decisionId),
});
