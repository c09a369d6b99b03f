// GET /api/companies/{id}/decisions (docs/api/decisions.md), and its twin GET /api/v1/companies/{slug}/decisions: a
// company's last decision rounds and each agent's budget in the latest.
import { Type } from 'typebox';
import { getDecisions } from '../../../domain/engine/queries.ts';
import { route } from '../../route.ts';
import { CompanyParams } from '../../schemas/companies.ts';
import { SlugParams } from '../../schemas/tokens.ts';
import { DecisionRound } from './round.ts';

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

export const Decisions = Type.Object({
  company: Type.Object({ id: Type.String(), name: Type.String(), category: Type.String() }),
  rounds: Type.Array(DecisionRound),
  latestBudget: Type.Array(BudgetEntry),
});

export default route({
  url: '/api/companies/:id/decisions',
  auth: 'none',
  tag: 'decisions',
  summary: "The company's last 10 decision rounds, most recent first, and each agent's budget in the latest",
  params: CompanyParams,
  response: Decisions,
  load: (deps, { params }) => getDecisions(deps, params.id),
  v1: {
    url: '/companies/:slug/decisions',
    params: SlugParams,
    paramsOf: (params: { slug: string }) => ({ id: params.slug }),
  },
});
