// Agent wallets and a company's money (docs/api/agents.md "Wallet and funds", docs/api/companies.md "Money in, money
// out"): the portfolios (an agent's, and a company's as the sum of its agents' and its Safe), an agent's on-chain
// actions, the creator's withdrawal of an agent's funds to the treasury, how to fund a company, the Safe
// transaction that takes money out, and the move into custody. The portfolios are read at the chain's latest block
// and kept per block (block-reads.ts): while no block is mined and no table they read changes, every request is
// answered from memory after one eth_blockNumber, which concurrent requests share.
import { type AnyRoute, registerRoute } from '../../route.ts';
import type { App, RouteOptions } from '../../types.ts';
import agentActions from './agent-actions.ts';
import agentPortfolio from './agent-portfolio.ts';
import companyPortfolio from './company-portfolio.ts';
import custody from './custody.ts';
import funding from './funding.ts';
import safeWithdrawal from './safe-withdrawal.ts';
import withdraw from './withdraw.ts';

export default async function tradingRoutes(app: App, options: RouteOptions) {
  const routes: AnyRoute[] = [
    agentPortfolio,
    agentActions,
    companyPortfolio,
    withdraw,
    funding,
    safeWithdrawal,
    custody,
  ];
  for (const def of routes) registerRoute(app, options, def, 'internal');
}
