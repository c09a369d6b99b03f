// PUT /api/companies/{id}/treasury (docs/api/companies.md "Treasury"), and its twin PUT
// /api/v1/companies/{slug}/treasury: the treasury that receives epoch rewards, with the treasury's acceptance.
import { Type } from 'typebox';
import { TREASURY_ACCEPTANCE_MAX_S } from '../../../constants.ts';
import { setTreasury } from '../../../domain/companies/treasury.ts';
import { route, slugTwin } from '../../route.ts';
import { AddressString } from '../../schemas/common.ts';
import { CompanyParams } from '../../schemas/companies.ts';
import { Company } from './company.ts';

/** What a treasury signs to accept a company (docs/api/companies.md "Treasury"). */
export const TreasuryAcceptanceSchema = Type.Object(
  {
    deadline: Type.Integer({
      minimum: 1,
      maximum: 2 ** 40,
      description: `The acceptance's last second (Unix time by the chain's clock): after the chain's time and at most ${TREASURY_ACCEPTANCE_MAX_S} s ahead of it`,
    }),
    signature: Type.String({
      pattern: '^0x([0-9a-fA-F]{2}){1,2048}$',
      description:
        "The treasury's EIP-712 signature of TreasuryAcceptance { companyId, treasury, chainId, deadline } (domain ai-economy, version 1, the chain id); a contract wallet's is checked with ERC-1271",
    }),
  },
  { additionalProperties: false },
);

export const TreasuryBody = Type.Object(
  {
    treasuryAddress: AddressString,
    acceptance: Type.Optional(TreasuryAcceptanceSchema),
  },
  {
    additionalProperties: false,
    description:
      "The new treasury, with its acceptance unless it is the signer's own wallet. Never the zero address, a platform contract, a company token, an agent wallet or another company's treasury.",
  },
);

export default route({
  method: 'PUT',
  url: '/api/companies/:id/treasury',
  auth: 'wallet',
  tag: 'companies',
  summary: "Set the treasury address that receives epoch rewards, with the treasury's acceptance",
  description:
    "The signer must hold the company's card. A treasury other than the signer's own wallet must accept the company: its EIP-712 signature of TreasuryAcceptance { companyId, treasury, chainId, deadline } (docs/api/companies.md). 400 BAD_REQUEST for the zero address, a platform contract, a company token or an agent wallet; 403 FORBIDDEN without a valid acceptance or for another company's treasury. The treasury score counts the treasury's time-weighted USDC balance from the moment it is set.",
  params: CompanyParams,
  body: TreasuryBody,
  response: Company,
  load: (deps, { params, body, signer }) => setTreasury(deps, params.id, signer, body),
  v1: slugTwin('/companies/:slug/treasury', CompanyParams),
});
