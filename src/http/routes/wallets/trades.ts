// GET /api/wallets/{wallet}/trades, and its twin GET /api/v1/wallets/{wallet}/trades: a wallet's trades across every
// company token, newest first, with its realised PnL over time (from the indexed trades).
import { Type } from 'typebox';
import { WALLET_TRADES_MAX } from '../../../constants.ts';
import { walletTrades } from '../../../domain/tokens/history.ts';
import { route } from '../../route.ts';
import {
  AddressOut,
  AddressString,
  Hash32,
  IsoTimestamp,
  Nullable,
  StringEnum,
  WalletParams,
} from '../../schemas/common.ts';
import { walletOf } from './wallet.ts';

const Decimal = (description: string) => Type.String({ pattern: '^-?[0-9]+(\\.[0-9]+)?$', description });

export const WalletTradesQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: WALLET_TRADES_MAX, default: 50 }),
});

export const WalletTrades = Type.Object({
  wallet: AddressOut('Checksummed'),
  trades: Type.Array(
    Type.Object({
      txHash: Hash32('Transaction hash'),
      logIndex: Type.Integer(),
      time: IsoTimestamp,
      blockNumber: Type.Integer(),
      company: Type.Object({
        id: Type.String(),
        slug: Type.String(),
        name: Type.String(),
        symbol: Nullable(Type.String()),
      }),
      side: StringEnum(['buy', 'sell'] as const),
      usdcAmount: Decimal('USDC paid or received'),
      tokenAmount: Decimal('Tokens bought or sold'),
      price: Decimal('USDC per token of this trade'),
      venue: StringEnum(['CURVE', 'POOL'] as const),
      realizedPnlUsdc: Nullable(Decimal("A sale's PnL against the wallet's average cost; null for a buy")),
      cumulativeRealizedPnlUsdc: Decimal(
        "The realised PnL of all the wallet's sales up to and including this trade (every trade counted, not only those answered)",
      ),
    }),
    { description: 'Newest first' },
  ),
});

export default route({
  url: '/api/wallets/:wallet/trades',
  auth: 'none',
  tag: 'tokens',
  summary: "A wallet's trades across every company token, newest first, with its realised PnL over time",
  description:
    'From the indexed trades. cumulativeRealizedPnlUsdc is the PnL of every sale of the wallet up to the trade, whatever `limit` cuts off. 400 BAD_REQUEST for an invalid wallet or limit.',
  params: WalletParams,
  query: WalletTradesQuery,
  response: WalletTrades,
  check: ({ params }) => void walletOf(params.wallet),
  load: (deps, { params, query }) => walletTrades(deps.database.db, walletOf(params.wallet), query.limit),
  v1: {
    url: '/wallets/:wallet/trades',
    params: Type.Object({ wallet: { ...AddressString, description: 'A wallet address, any case' } }),
    description:
      'As GET /api/wallets/{wallet}/trades: cumulativeRealizedPnlUsdc is the PnL of every sale of the wallet up to the trade, whatever `limit` cuts off',
  },
});
