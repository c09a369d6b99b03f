// GET /api/companies/{id}/portfolio (docs/api/agents.md "Wallet and funds"): the company's agent wallets, its Safe when
// it has custody, and their sum, read at the chain's latest block and kept per block (block-reads.ts).
import { Type } from 'typebox';
import { companyPortfolio } from '../../../domain/trading/portfolio.ts';
import { route } from '../../route.ts';
import { AddressString, Nullable } from '../../schemas/common.ts';
import { CompanyParams } from '../../schemas/companies.ts';
import { AgentPortfolio, PORTFOLIO_TABLES, Position, Totals } from './portfolio.ts';

export const CompanyPortfolio = Type.Object({
  companyId: Type.String(),
  agents: Type.Array(AgentPortfolio, {
    description: 'Every agent of the company with a wallet, terminated ones too',
  }),
  safe: Nullable(
    Type.Object(
      {
        address: AddressString,
        balances: AgentPortfolio.properties.balances,
        positions: Type.Array(Position),
        totals: Totals,
      },
      {
        description:
          'The company\'s Safe when it has custody (docs/contracts.md "Custody"): the money its agents trade with, and the trader of their trades; null without custody',
      },
    ),
  ),
  totals: Totals,
});

export default route({
  url: '/api/companies/:id/portfolio',
  auth: 'none',
  tag: 'companies',
  summary: "The company's agent wallets and their sum",
  description:
    "Read at the chain's latest block, like GET /api/agents/{id}/portfolio, and kept until the next block (or a new trade, or a change to the company or its agents).",
  params: CompanyParams,
  response: CompanyPortfolio,
  cache: { name: 'company-portfolio', tables: PORTFOLIO_TABLES, perBlock: true, key: ({ params }) => params.id },
  load: (deps, { params }, block) => companyPortfolio(deps, params.id, block),
});
