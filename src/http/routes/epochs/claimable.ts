// GET /api/epochs/claimable/{companyId} (docs/api/epochs.md), and its twin GET /api/v1/companies/{slug}/rewards: a
// company's rewards in its last finalized epochs and the total not yet claimed.
import { Type } from 'typebox';
import { readClaimable } from '../../../domain/epochs/queries.ts';
import { route } from '../../route.ts';
import { AddressString, WeiString } from '../../schemas/common.ts';
import { SlugParams } from '../../schemas/tokens.ts';
import { CompanyId } from './shared.ts';

const ClaimableEntry = Type.Object({
  epochNumber: Type.Integer({ minimum: 0 }),
  amount: WeiString,
  alreadyClaimed: Type.Boolean(),
});

export const Claimable = Type.Union([
  Type.Object({
    companyId: Type.String(),
    treasuryAddress: AddressString,
    claimable: Type.Array(ClaimableEntry, {
      description: 'The last 12 finalized epochs with a reward, newest first',
    }),
    totalClaimable: WeiString,
  }),
  Type.Object({
    companyId: Type.String(),
    treasuryAddress: Type.Null(),
    claimable: Type.Array(ClaimableEntry, { maxItems: 0 }),
    totalClaimable: Type.Literal('0'),
    reason: Type.Literal('no_treasury_address'),
  }),
]);

export default route({
  url: '/api/epochs/claimable/:companyId',
  auth: 'none',
  tag: 'epochs',
  summary: "A company's rewards in its last 12 finalized epochs, newest first, and the total not yet claimed",
  description:
    'A company without a treasury address answers treasuryAddress null, an empty list, totalClaimable "0" and reason "no_treasury_address". 404 for an unknown company.',
  params: Type.Object({ companyId: CompanyId }),
  response: Claimable,
  load: (deps, { params }) => readClaimable(deps, params.companyId),
  v1: {
    url: '/companies/:slug/rewards',
    params: SlugParams,
    description: null,
    paramsOf: (params: { slug: string }) => ({ companyId: params.slug }),
  },
});
