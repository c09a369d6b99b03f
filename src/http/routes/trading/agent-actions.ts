// GET /api/agents/{id}/actions (docs/api/agents.md): the agent wallet's on-chain actions, newest first.
import { Type } from 'typebox';
import { agentActionsOf } from '../../../domain/agents/queries.ts';
import { route } from '../../route.ts';
import { AddressOut, Hash32, IsoTimestamp, Nullable, StringEnum } from '../../schemas/common.ts';
import { AgentIdParams } from '../agents/agent.ts';
import { Decimal } from './portfolio.ts';

export const AgentActions = Type.Array(
  Type.Object({
    tool: Type.String(),
    roundId: Nullable(Type.String()),
    tokenAddress: Nullable(AddressOut()),
    notionalUsdc: Decimal('USDC the action traded (0 for staking)'),
    txHash: Nullable(Hash32('Transaction hash')),
    status: StringEnum(['SENT', 'MINED', 'REVERTED', 'FAILED'] as const, {
      description: 'SENT (signed or about to be), MINED, REVERTED on-chain, or FAILED (nothing was signed)',
    }),
    createdAt: IsoTimestamp,
  }),
  { description: "The agent wallet's on-chain actions, newest first (the last 50)" },
);

export default route({
  url: '/api/agents/:id/actions',
  auth: 'none',
  tag: 'agents',
  summary: "The agent wallet's on-chain actions (trades, stakes, harvests, withdrawal steps), newest first",
  description: 'The last 50, each with its transaction and status. 404 for an unknown agent.',
  params: AgentIdParams,
  response: AgentActions,
  load: (deps, { params }) => agentActionsOf(deps.database.db, params.id),
});
