// GET /api/companies/{id}/funding (docs/api/companies.md "Money in, money out"): where the company's money goes, and
// the USDC transfer that funds it.
import { Type } from 'typebox';
import { companyFunding } from '../../../domain/trading/company-funds.ts';
import { route } from '../../route.ts';
import { AddressString, Nullable, StringEnum } from '../../schemas/common.ts';
import { CompanyParams } from '../../schemas/companies.ts';
import { Amount, Decimal } from './portfolio.ts';

export const FundingQuery = Type.Object({
  amount: Type.Optional(Amount),
  agent: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'Without custody: the agent whose wallet the transfer funds (the CFO by default)',
    }),
  ),
});

export const Funding = Type.Object({
  companyId: Type.String(),
  custody: StringEnum(['SAFE', 'AGENT_WALLETS'] as const, {
    description:
      "SAFE: the company's money is in its Safe, which its agents trade from through their roles; AGENT_WALLETS: each agent trades from its own wallet",
  }),
  usdc: AddressString,
  recipients: Type.Array(
    Type.Object({
      kind: StringEnum(['SAFE', 'AGENT'] as const),
      address: AddressString,
      agentId: Nullable(Type.String()),
      role: Nullable(Type.String()),
    }),
    { description: "Where the company's USDC goes: its Safe, or its active agents' wallets, the CFO's first" },
  ),
  transaction: Nullable(
    Type.Object(
      {
        to: AddressString,
        data: Type.String({ pattern: '^0x[0-9a-f]*$' }),
        value: Type.Literal('0'),
        recipient: AddressString,
        amount: Decimal('USDC'),
      },
      {
        description:
          "With `amount`: the USDC transfer to send from the funder's own wallet (one transaction; a transfer needs no allowance or permit)",
      },
    ),
  ),
});

export default route({
  url: '/api/companies/:id/funding',
  auth: 'none',
  tag: 'companies',
  summary: "Where the company's money goes, and the USDC transfer that funds it",
  description:
    "A company with custody is funded with a USDC transfer to its Safe; one without, with a transfer to an agent's wallet (the CFO's by default, or `agent`). With `amount` the answer holds the transfer to send from the funder's own wallet: one transaction, no allowance and no permit. Anyone may fund a company. 400 BAD_REQUEST for an amount that is not a positive decimal of at most 6 decimals and 10^15 USDC, or an agent that is not the company's; 409 CONFLICT with an amount for a company whose C-suite has no wallet yet.",
  params: CompanyParams,
  query: FundingQuery,
  response: Funding,
  load: (deps, { params, query }) => companyFunding(deps, params.id, query),
});
