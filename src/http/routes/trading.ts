// Agent wallets: their portfolios (an agent's, and a company's as the sum of its agents') and the creator's
// withdrawal of an agent's funds to the company treasury (docs/api/agents.md "Wallet and funds").
// A portfolio is read at the chain's latest block and kept per block (block-reads.ts): while no block is mined and
// no table it reads changes, every request is answered from memory after one eth_blockNumber, which concurrent
// requests share, and a conditional one whose tag still matches without any. Positions come from trader_positions, written in the transaction
// that records the trades (token_trades) or the carries of a move into custody (position_carries), so watching those
// two covers them.
import { agentActionsOf } from '../../domain/agents/queries.ts';
import { companyFunding, moveToCustody, prepareSafeWithdrawal } from '../../domain/trading/company-funds.ts';
import { agentPortfolio, companyPortfolio } from '../../domain/trading/portfolio.ts';
import { withdrawAgentFunds } from '../../domain/trading/withdraw.ts';
import { requireWallet } from '../auth/index.ts';
import { blockReads } from '../block-reads.ts';
import { ok } from '../envelope.ts';
import { AgentIdParams } from '../schemas/agents.ts';
import { internalErrors } from '../schemas/common.ts';
import { CompanyParams } from '../schemas/companies.ts';
import {
  AgentActionsResponse,
  AgentPortfolioResponse,
  CompanyPortfolioResponse,
  CustodyMoveResponse,
  FundingQuery,
  FundingResponse,
  SafeWithdrawalBody,
  SafeWithdrawalResponse,
  WithdrawalResponse,
} from '../schemas/trading.ts';
import type { App, RouteOptions } from '../types.ts';

export default async function tradingRoutes(app: App, { deps, reads, chainHead }: RouteOptions) {
  const tables = ['agents', 'companies', 'token_trades', 'position_carries'] as const;
  const agentPortfolios = blockReads(chainHead, reads.route('agent-portfolio', { tables }));
  const companyPortfolios = blockReads(chainHead, reads.route('company-portfolio', { tables }));

  app.get(
    '/api/agents/:id/portfolio',
    {
      schema: {
        tags: ['agents'],
        summary: "An agent wallet's balances, positions at average cost, and PnL in USDC",
        description:
          'Balances are read from the chain at its latest block, and the answer is kept until the next block (or a new trade, or a change to the agent); positions come from the indexed trades of the wallet (trader_positions), valued at the launcher price at that block. Anyone may fund the wallet by sending it USDC or the primary token. 503 CHAIN_UNAVAILABLE when the node does not answer.',
        params: AgentIdParams,
        response: { 200: AgentPortfolioResponse, ...internalErrors },
      },
    },
    (request, reply) => {
      const { id } = request.params;
      return agentPortfolios.send(reply, id, async (block) => ok(await agentPortfolio(deps, id, block)));
    },
  );

  app.get(
    '/api/agents/:id/actions',
    {
      schema: {
        tags: ['agents'],
        summary: "The agent wallet's on-chain actions (trades, stakes, harvests, withdrawal steps), newest first",
        description: 'The last 50, each with its transaction and status. 404 for an unknown agent.',
        params: AgentIdParams,
        response: { 200: AgentActionsResponse, ...internalErrors },
      },
    },
    async (request) => ok(await agentActionsOf(deps.database.db, request.params.id)),
  );

  app.get(
    '/api/companies/:id/portfolio',
    {
      schema: {
        tags: ['companies'],
        summary: "The company's agent wallets and their sum",
        description:
          "Read at the chain's latest block, like GET /api/agents/{id}/portfolio, and kept until the next block (or a new trade, or a change to the company or its agents).",
        params: CompanyParams,
        response: { 200: CompanyPortfolioResponse, ...internalErrors },
      },
    },
    (request, reply) => {
      const { id } = request.params;
      return companyPortfolios.send(reply, id, async (block) => ok(await companyPortfolio(deps, id, block)));
    },
  );

  app.post(
    '/api/agents/:id/withdraw',
    {
      preValidation: requireWallet(deps),
      schema: {
        tags: ['agents'],
        summary: "Send the agent wallet's funds to the company treasury (creator only)",
        description:
          "Unstakes the agent's primary tokens, harvests its emission, and sends its USDC, primary, emission and company tokens to the company's treasuryAddress; the native gas float stays. 400 BAD_REQUEST when the company has no treasury (or the agent no wallet), 403 FORBIDDEN for anyone but the creator. Works for terminated agents. Calling it again after an interruption finishes the withdrawal and sends nothing twice.",
        security: [{ wallet: [] }],
        params: AgentIdParams,
        response: { 200: WithdrawalResponse, ...internalErrors },
      },
    },
    async (request) => ok(await withdrawAgentFunds(deps, request.params.id, request.signer!)),
  );

  app.get(
    '/api/companies/:id/funding',
    {
      schema: {
        tags: ['companies'],
        summary: "Where the company's money goes, and the USDC transfer that funds it",
        description:
          "A company with custody is funded with a USDC transfer to its Safe; one without, with a transfer to an agent's wallet (the CFO's by default, or `agent`). With `amount` the answer holds the transfer to send from the funder's own wallet: one transaction, no allowance and no permit. Anyone may fund a company. 400 BAD_REQUEST for an amount that is not a positive decimal of at most 6 decimals and 10^15 USDC, or an agent that is not the company's; 409 CONFLICT with an amount for a company whose C-suite has no wallet yet.",
        params: CompanyParams,
        querystring: FundingQuery,
        response: { 200: FundingResponse, ...internalErrors },
      },
    },
    async (request) => ok(await companyFunding(deps, request.params.id, request.query)),
  );

  app.post(
    '/api/companies/:id/safe/withdrawal',
    {
      preValidation: requireWallet(deps),
      schema: {
        tags: ['companies'],
        summary: "Build the Safe transaction that takes money out of the company's Safe (card holder only)",
        description:
          "The platform only builds the transaction; the card's holder signs its typed data and executes it with their own wallet (Safe execTransaction, the signature wrapped as the owner contract's: docs/api/companies.md \"Money in, money out\"). The server holds no key that can move the Safe's money. `token` defaults to USDC (USDC, the platform's two tokens or the company's token), `to` to the signer. 400 BAD_REQUEST for an amount that is not positive, has more decimals than the token, or is more than the Safe holds, or `to` the Safe itself; 403 FORBIDDEN for anyone but the card's holder; 409 CONFLICT for a company without a Safe.",
        security: [{ wallet: [] }],
        params: CompanyParams,
        body: SafeWithdrawalBody,
        response: { 200: SafeWithdrawalResponse, ...internalErrors },
      },
    },
    async (request) => ok(await prepareSafeWithdrawal(deps, request.params.id, request.signer, request.body)),
  );

  app.post(
    '/api/companies/:id/custody',
    {
      preValidation: requireWallet(deps),
      schema: {
        tags: ['companies'],
        summary: 'Move a company created before custody into a Safe of its own (card holder only)',
        description:
          "Sets up the company's Safe and Roles module (its agents become members of their roles) and sweeps every agent wallet into the Safe: stakes unstaked, emission harvested, USDC and tokens transferred; the gas float stays. From then on the agents trade from the Safe. Interrupted, calling it again finishes the move and sends nothing twice; on a company already moved it sweeps what reached the agent wallets since. 403 FORBIDDEN for anyone but the card's holder; 409 CONFLICT when the platform does not set up custody (COMPANY_CUSTODY) or the company's C-suite is not deployed yet (deploy-suite sets custody up itself). 429 GAS_BUDGET_EXCEEDED when sweeping the next agent wallet would take the company past its daily gas budget: the Safe is set up and the wallets swept stay swept; the same request finishes the rest once the day has room.",
        security: [{ wallet: [] }],
        params: CompanyParams,
        response: { 200: CustodyMoveResponse, ...internalErrors },
      },
    },
    async (request) => ok(await moveToCustody(deps, request.params.id, request.signer)),
  );
}
