// GET /api/agents/{id}/portfolio (docs/api/agents.md "Wallet and funds"): an agent wallet's balances, positions at
// average cost, and PnL in USDC, read at the chain's latest block and kept per block (block-reads.ts).
import { agentPortfolio } from '../../../domain/trading/portfolio.ts';
import { route } from '../../route.ts';
import { AgentIdParams } from '../agents/agent.ts';
import { AgentPortfolio, PORTFOLIO_TABLES } from './portfolio.ts';

export default route({
  url: '/api/agents/:id/portfolio',
  auth: 'none',
  tag: 'agents',
  summary: "An agent wallet's balances, positions at average cost, and PnL in USDC",
  description:
    'Balances are read from the chain at its latest block, and the answer is kept until the next block (or a new trade, or a change to the agent); positions come from the indexed trades of the wallet (trader_positions), valued at the launcher price at that block. Anyone may fund the wallet by sending it USDC or the primary token. 503 CHAIN_UNAVAILABLE when the node does not answer.',
  params: AgentIdParams,
  response: AgentPortfolio,
  cache: { name: 'agent-portfolio', tables: PORTFOLIO_TABLES, perBlock: true, key: ({ params }) => params.id },
  load: (deps, { params }, block) => agentPortfolio(deps, params.id, block),
});
