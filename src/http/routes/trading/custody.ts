// POST /api/companies/{id}/custody (docs/contracts.md "Custody"): a company created before custody moved into a Safe
// of its own, signed by the card's holder; run again, it finishes an interrupted move.
import { Type } from 'typebox';
import { moveToCustody } from '../../../domain/trading/company-funds.ts';
import { route } from '../../route.ts';
import { AddressString, Nullable } from '../../schemas/common.ts';
import { CompanyParams } from '../../schemas/companies.ts';
import { Decimal, FundsTransfer } from './portfolio.ts';

const Transfers = Type.Array(FundsTransfer);

export const CustodyMove = Type.Object({
  companyId: Type.String(),
  custody: Type.Object({ safe: AddressString, roles: AddressString, owner: AddressString }),
  swept: Type.Array(
    Type.Object({
      agentId: Type.String(),
      role: Nullable(Type.String()),
      unstaked: Decimal('Primary tokens unstaked first'),
      harvested: Decimal('Emission harvested first'),
      transfers: Transfers,
    }),
    { description: 'What each agent wallet sent into the Safe on this run; empty when nothing was left' },
  ),
});

export default route({
  method: 'POST',
  url: '/api/companies/:id/custody',
  auth: 'wallet',
  tag: 'companies',
  summary: 'Move a company created before custody into a Safe of its own (card holder only)',
  description:
    "Sets up the company's Safe and Roles module (its agents become members of their roles) and sweeps every agent wallet into the Safe: stakes unstaked, emission harvested, USDC and tokens transferred; the gas float stays. From then on the agents trade from the Safe. Interrupted, calling it again finishes the move and sends nothing twice; on a company already moved it sweeps what reached the agent wallets since. 403 FORBIDDEN for anyone but the card's holder; 409 CONFLICT when the platform does not set up custody (COMPANY_CUSTODY) or the company's C-suite is not deployed yet (deploy-suite sets custody up itself). 429 GAS_BUDGET_EXCEEDED when sweeping the next agent wallet would take the company past its daily gas budget: the Safe is set up and the wallets swept stay swept; the same request finishes the rest once the day has room.",
  params: CompanyParams,
  response: CustodyMove,
  load: (deps, { params, signer }) => moveToCustody(deps, params.id, signer),
});
