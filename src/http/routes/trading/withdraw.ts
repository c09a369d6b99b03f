// POST /api/agents/{id}/withdraw (docs/api/agents.md "Wallet and funds"): the agent wallet's funds sent to the
// company treasury, signed by the creator.
import { Type } from 'typebox';
import { withdrawAgentFunds } from '../../../domain/trading/withdraw.ts';
import { route } from '../../route.ts';
import { AddressString } from '../../schemas/common.ts';
import { AgentIdParams } from '../agents/agent.ts';
import { Decimal, FundsTransfer } from './portfolio.ts';

export const Withdrawal = Type.Object({
  agentId: Type.String(),
  treasuryAddress: AddressString,
  unstaked: Decimal('Primary tokens unstaked first'),
  harvested: Decimal('Emission harvested first'),
  transfers: Type.Array(FundsTransfer, {
    description: 'One transfer to the treasury per asset the wallet held; empty when it held nothing',
  }),
});

export default route({
  method: 'POST',
  url: '/api/agents/:id/withdraw',
  auth: 'wallet',
  tag: 'agents',
  summary: "Send the agent wallet's funds to the company treasury (creator only)",
  description:
    "Unstakes the agent's primary tokens, harvests its emission, and sends its USDC, primary, emission and company tokens to the company's treasuryAddress; the native gas float stays. 400 BAD_REQUEST when the company has no treasury (or the agent no wallet), 403 FORBIDDEN for anyone but the creator. Works for terminated agents. Calling it again after an interruption finishes the withdrawal and sends nothing twice.",
  params: AgentIdParams,
  response: Withdrawal,
  load: (deps, { params, signer }) => withdrawAgentFunds(deps, params.id, signer!),
});
