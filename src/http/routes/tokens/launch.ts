// POST /api/companies/{id}/token (docs/api/tokens.md "Launch"), and its twin POST /api/v1/companies/{slug}/token: the
// company's token launched on its bonding curve, signed by the card's holder.
import { Type } from 'typebox';
import { TOKEN_NAME_MAX, TOKEN_SYMBOL_PATTERN } from '../../../constants.ts';
import { launchToken } from '../../../domain/tokens/launch.ts';
import { route, slugTwin } from '../../route.ts';
import { CompanyParams } from '../../schemas/companies.ts';
import { TokenStatus } from './status.ts';

export const LaunchTokenBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: TOKEN_NAME_MAX, description: `1-${TOKEN_NAME_MAX} characters` }),
    symbol: Type.String({ pattern: TOKEN_SYMBOL_PATTERN, description: '2-10 characters, A-Z and 0-9' }),
  },
  { additionalProperties: false },
);

export default route({
  method: 'POST',
  url: '/api/companies/:id/token',
  auth: 'wallet',
  tag: 'tokens',
  summary: "Launch the company's token on its bonding curve (creator only): PRE_PUBLIC -> BONDING, company PUBLIC",
  description:
    'Deploys the token (1,000,000 supply, 18 decimals) through the token launcher and opens its USDC curve; it graduates into a Uniswap v4 pool when its market cap reaches GRADUATION_THRESHOLD_USD. 409 when the company already has a token or another launch is in flight; repeating the same request finishes an interrupted launch.',
  params: CompanyParams,
  body: LaunchTokenBody,
  status: 201,
  response: TokenStatus,
  load: (deps, { params, body, signer }) => launchToken(deps, params.id, signer, body),
  v1: slugTwin('/companies/:slug/token', CompanyParams),
});
