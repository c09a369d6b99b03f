// Schemas of the agent-wallet routes: an agent's or a company's portfolio, and a withdrawal to the treasury.
// Money is decimal strings in the asset's units (USDC 6 decimals, tokens 18), never a JSON number.
import { Type } from 'typebox';
import { AddressOut, AddressString, Hash32, IsoTimestamp, internalOk, Nullable, StringEnum } from './common.ts';

const Decimal = (description: string) => Type.String({ pattern: '^-?[0-9]+(\\.[0-9]+)?$', description });

const Position = Type.Object({
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

const Totals = Type.Object({
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

export const AgentPortfolioResponse = internalOk(AgentPortfolio);
export const CompanyPortfolioResponse = internalOk(
  Type.Object({
    companyId: Type.String(),
    agents: Type.Array(AgentPortfolio, {
      description: 'Every agent of the company with a wallet, terminated ones too',
    }),
    safe: Nullable(
      Type.Object(
        {
          address: AddressString,
          balances: AgentPortfolio.properties.balances,
          positions: Type.Array(Position),
          totals: Totals,
        },
        {
          description:
            'The company\'s Safe when it has custody (docs/contracts.md "Custody"): the money its agents trade with, and the trader of their trades; null without custody',
        },
      ),
    ),
    totals: Totals,
  }),
);

export const WithdrawalResponse = internalOk(
  Type.Object({
    agentId: Type.String(),
    treasuryAddress: AddressString,
    unstaked: Decimal('Primary tokens unstaked first'),
    harvested: Decimal('Emission harvested first'),
    transfers: Type.Array(
      Type.Object({
        asset: StringEnum(['USDC', 'PRIMARY', 'EMISSION', 'COMPANY_TOKEN'] as const),
        token: AddressString,
        symbol: Nullable(Type.String()),
        amount: Decimal("In the token's units"),
        txHash: Hash32('Transaction hash'),
      }),
      { description: 'One transfer to the treasury per asset the wallet held; empty when it held nothing' },
    ),
  }),
);

// Money in and out of a company (docs/api/companies.md "Money in, money out").
const Amount = Type.String({
  minLength: 1,
  maxLength: 40,
  description: "A positive decimal amount in the asset's units (USDC: at most 6 decimals; tokens: 18)",
});

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

export const FundingResponse = internalOk(
  Type.Object({
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
  }),
);

export const SafeWithdrawalBody = Type.Object(
  {
    amount: Amount,
    token: Type.Optional(AddressString),
    to: Type.Optional(AddressString),
  },
  { additionalProperties: false },
);

const Uint = (description: string) => Type.String({ pattern: '^[0-9]+$', description });

export const SafeWithdrawalResponse = internalOk(
  Type.Object({
    companyId: Type.String(),
    safe: AddressString,
    owner: AddressString,
    token: AddressString,
    amount: Decimal("In the token's units"),
    to: AddressString,
    nonce: Uint("The Safe's nonce the transaction is built at: it is valid until another Safe transaction runs"),
    safeTxHash: Type.String({ pattern: '^0x[0-9a-f]{64}$' }),
    typedData: Type.Object(
      {
        domain: Type.Object({ chainId: Type.Integer(), verifyingContract: AddressString }),
        types: Type.Object({
          SafeTx: Type.Array(Type.Object({ name: Type.String(), type: Type.String() })),
        }),
        primaryType: Type.Literal('SafeTx'),
        message: Type.Object({
          to: AddressString,
          value: Uint('wei'),
          data: Type.String({ pattern: '^0x[0-9a-f]*$' }),
          operation: Type.Integer({ minimum: 0, maximum: 1 }),
          safeTxGas: Uint('0'),
          baseGas: Uint('0'),
          gasPrice: Uint('0'),
          gasToken: AddressString,
          refundReceiver: AddressString,
          nonce: Uint("The Safe's nonce"),
        }),
      },
      {
        description:
          "The EIP-712 SafeTx the card's holder signs with eth_signTypedData_v4 (uint fields as decimal strings)",
      },
    ),
  }),
);

const Transfers = Type.Array(
  Type.Object({
    asset: StringEnum(['USDC', 'PRIMARY', 'EMISSION', 'COMPANY_TOKEN'] as const),
    token: AddressString,
    symbol: Nullable(Type.String()),
    amount: Decimal("In the token's units"),
    txHash: Hash32('Transaction hash'),
  }),
);

export const CustodyMoveResponse = internalOk(
  Type.Object({
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
  }),
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
