// GET /api/wallets/{wallet}/companies: the companies a wallet created, newest first, for the web app's account page.
import { Type } from 'typebox';
import { COMPANY_STATUSES, LEAGUES, TOKEN_STATUSES } from '../../../constants.ts';
import { companiesCreatedBy } from '../../../domain/companies/queries.ts';
import { route } from '../../route.ts';
import { IsoTimestamp, Nullable, StringEnum, WalletParams } from '../../schemas/common.ts';
import { walletOf } from './wallet.ts';

export const WalletCompanies = Type.Array(
  Type.Object({
    id: Type.String(),
    slug: Type.String(),
    name: Type.String(),
    status: StringEnum(COMPANY_STATUSES),
    league: StringEnum(LEAGUES),
    cardTokenId: Type.Integer(),
    tokenStatus: StringEnum(TOKEN_STATUSES),
    tokenSymbol: Nullable(Type.String()),
    createdAt: IsoTimestamp,
  }),
  { description: 'The companies the wallet created, newest first' },
);

export default route({
  url: '/api/wallets/:wallet/companies',
  auth: 'none',
  tag: 'companies',
  summary: 'The companies a wallet created, newest first',
  description: '400 BAD_REQUEST for an invalid wallet.',
  params: WalletParams,
  response: WalletCompanies,
  check: ({ params }) => void walletOf(params.wallet),
  load: (deps, { params }) => companiesCreatedBy(deps.database.db, walletOf(params.wallet)),
});
