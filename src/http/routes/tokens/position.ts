// GET /api/companies/{id}/token/position/{wallet} (docs/api/tokens.md "Position"), and its twin
// GET /api/v1/companies/{slug}/token/position/{wallet}: a wallet's position in the company token at average cost, and
// its realised PnL, from the indexed trades. A bad wallet answers 400 BAD_REQUEST, as the staking routes do.
import { Type } from 'typebox';
import { tokenPositionOf } from '../../../domain/trading/position.ts';
import { route } from '../../route.ts';
import { AddressOut, AddressString, WalletParams } from '../../schemas/common.ts';
import { CompanyParams } from '../../schemas/companies.ts';
import { SlugParams } from '../../schemas/tokens.ts';
import { walletOf } from '../wallets/wallet.ts';
import { Decimal } from './market.ts';

export const Position = Type.Object({
  companyId: Type.String(),
  wallet: AddressOut('Checksummed'),
  quantity: Decimal('Tokens bought and not yet sold (what the cost covers); tokens received by transfer have no cost'),
  costUsdc: Decimal('USDC paid for quantity'),
  averageCostUsdc: Decimal('USDC per whole token: costUsdc / quantity, 0 when nothing is held'),
  realizedPnlUsdc: Type.String({
    pattern: '^-?[0-9]+(\\.[0-9]+)?$',
    description: "What the wallet's sales made against the average cost (negative for a loss)",
  }),
});

export default route({
  url: '/api/companies/:id/token/position/:wallet',
  auth: 'none',
  tag: 'tokens',
  summary: "A wallet's position in the company token at average cost, from its indexed trades",
  description:
    "quantity and costUsdc follow the average-cost method: a buy adds its tokens and USDC, a sale takes out the sold tokens' share of the cost and realises the difference. The wallet's balance itself is on-chain. 400 BAD_REQUEST for an invalid wallet; 404 for an unknown company.",
  // The params schema documents the wallet, and walletOf decides, so every bad wallet answers the same 400.
  params: Type.Object({ ...CompanyParams.properties, ...WalletParams.properties }),
  check: ({ params }) => void walletOf(params.wallet),
  response: Position,
  load: (deps, { params }) => tokenPositionOf(deps.database.db, params.id, walletOf(params.wallet)),
  v1: {
    url: '/companies/:slug/token/position/:wallet',
    summary: "A wallet's position in the company token at average cost, and its realised PnL",
    description:
      'As GET /api/companies/{id}/token/position/{wallet}: quantity and costUsdc by the average-cost method, from the indexed trades. 404 for an unknown company',
    params: Type.Object({
      ...SlugParams.properties,
      wallet: { ...AddressString, description: 'A wallet address, any case' },
    }),
    paramsOf: ({ slug, wallet }: { slug: string; wallet: string }) => ({ id: slug, wallet }),
  },
});
