// An agent wallet's portfolio as the portfolio routes answer it: balances, positions at average cost, and totals.
// Money is decimal strings in the asset's units (USDC 6 decimals, tokens 18), never a JSON number.
import { Type } from 'typebox';
import { AddressString, Hash32, Nullable, StringEnum } from '../../schemas/common.ts';

export const Decimal = (description: string) => Type.String({ pattern: '^-?[0-9]+(\\.[0-9]+)?$', description });

/** One asset moved out of an agent's wallet (a withdrawal to the treasury, a sweep into the company's Safe). */
export const FundsTransfer = Type.Object({
  asset: StringEnum(['USDC', 'PRIMARY', 'EMISSION', 'COMPANY_TOKEN'] as const),
  token: AddressString,
  symbol: Nullable(Type.String()),
  amount: Decimal("In the token's units"),
  txHash: Hash32('Transaction hash'),
});

export const Position = Type.Object({
  token: AddressString,
  symbol: Nullable(Type.String()),
  companyId: Type.String({ description: 'The company whose token it is' }),
  balance: Decimal('Tokens the wallet holds now'),
  quantity: Decimal(
    'Tokens bought and not yet sold (with those a move into custody carried in from an agent wallet): what the cost basis covers',
  ),
  costUsdc: Decimal('USDC paid for `quantity` (average cost)'),
  averageCostUsdc: Decimal('USDC per whole token'),
  priceUsdc: Decimal("The launcher's price now (the v4 pool's once graduated)"),
  valueUsdc: Decimal('`balance` at `priceUsdc` (the mark value)'),
  exitValueUsdc: Nullable(
    Decimal(
      "The exit value: USDC selling the whole `balance` now would return (the launcher's quoteSell at the same block: price impact and fees included); null when the launcher cannot quote it",
    ),
  ),
  realizedPnlUsdc: Decimal('What sales of this token made against their average cost'),
  unrealizedPnlUsdc: Decimal('What the bought tokens still held are worth at `priceUsdc`, less what they cost'),
  exitUnrealizedPnlUsdc: Nullable(
    Decimal(
      'What the bought tokens still held would sell for now (their share of `exitValueUsdc`), less what they cost',
    ),
  ),
});

export const Totals = Type.Object({
  valueUsdc: Decimal('USDC held plus the value of the company tokens held at their prices'),
  exitValueUsdc: Decimal(
    'USDC held plus what selling each token position now would return (a position that cannot be quoted at its price)',
  ),
  realizedPnlUsdc: Decimal('Realised PnL over every token'),
  unrealizedPnlUsdc: Decimal('Unrealised PnL over every token, at their prices'),
  exitUnrealizedPnlUsdc: Decimal('Unrealised PnL over every token, at their exit values'),
});

export const AgentPortfolio = Type.Object({
  agentId: Type.String(),
  role: Nullable(Type.String()),
  address: Nullable(AddressString),
  balances: Nullable(
    Type.Object({
      nativeWei: Type.String({ pattern: '^[0-9]+$', description: 'The gas float the platform keeps (wei)' }),
      usdc: Decimal('USDC'),
      primary: Decimal('The primary token, not staked'),
      emission: Decimal('The emission token'),
      staked: Decimal('The primary token staked in pool 0'),
      pendingEmission: Decimal('Emission earned and not yet harvested'),
    }),
  ),
  positions: Type.Array(Position),
  totals: Totals,
});

// Money in and out of a company (docs/api/companies.md "Money in, money out").
export const Amount = Type.String({
  minLength: 1,
  maxLength: 40,
  description: "A positive decimal amount in the asset's units (USDC: at most 6 decimals; tokens: 18)",
});

/**
 * What a portfolio reads: positions come from trader_positions, written in the transaction that records the trades
 * (token_trades) or the carries of a move into custody (position_carries), so watching those two covers them.
 */
export const PORTFOLIO_TABLES = ['agents', 'companies', 'token_trades', 'position_carries'] as const;
