// Schemas of the wallet routes: what one wallet did and owns on the platform (its trades across every company
// token, the companies it created, an agent's actions), for the account and agent pages of the web app.
import { Type } from 'typebox';
import { ADDRESS_NAMES_MAX, COMPANY_STATUSES, LEAGUES, TOKEN_STATUSES, WALLET_TRADES_MAX } from '../../constants.ts';
import { AddressOut, AddressString, Hash32, IsoTimestamp, internalOk, Nullable, StringEnum } from './common.ts';

const Decimal = (description: string) => Type.String({ pattern: '^-?[0-9]+(\\.[0-9]+)?$', description });

export const WalletTradesQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: WALLET_TRADES_MAX, default: 50 }),
});

export const WalletTradesResponse = internalOk(
  Type.Object({
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
  }),
);

export const WalletCompaniesResponse = internalOk(
  Type.Array(
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
  ),
);

export const AgentActionsResponse = internalOk(
  Type.Array(
    Type.Object({
      tool: Type.String(),
      roundId: Nullable(Type.String()),
      tokenAddress: Nullable(AddressOut()),
      notionalUsdc: Decimal('USDC the action traded (0 for staking)'),
      txHash: Nullable(Hash32('Transaction hash')),
      status: StringEnum(['SENT', 'MINED', 'REVERTED', 'FAILED'] as const, {
        description: 'SENT (signed or about to be), MINED, REVERTED on-chain, or FAILED (nothing was signed)',
      }),
      createdAt: IsoTimestamp,
    }),
    { description: "The agent wallet's on-chain actions, newest first (the last 50)" },
  ),
);

/**
 * The addresses to name, each checked by the one address schema. A client sends them comma-separated
 * (`addresses=0xa…,0xb…`) or repeated (`addresses=0xa…&addresses=0xb…`); the route splits either into this list
 * before validation (`splitAddressList` in src/http/routes/wallets.ts).
 */
export const AddressNamesQuery = Type.Object({
  addresses: Type.Array(AddressString, {
    minItems: 1,
    maxItems: ADDRESS_NAMES_MAX,
    description: `Addresses, comma-separated or repeated, at most ${ADDRESS_NAMES_MAX}`,
  }),
});

export const AddressNamesResponse = internalOk(
  Type.Array(
    Type.Object({
      address: AddressOut('Checksummed'),
      kind: StringEnum(['agent', 'company'] as const),
      name: Type.String({ description: '"Spot Sprinters\' CFO", "Acme\'s treasury", or a stand-alone agent\'s name' }),
      agentId: Nullable(Type.String()),
      company: Nullable(Type.Object({ id: Type.String(), slug: Type.String(), name: Type.String() })),
    }),
    {
      description:
        'The addresses asked that are an agent wallet or a company treasury or Safe; the others are left out',
    },
  ),
);
