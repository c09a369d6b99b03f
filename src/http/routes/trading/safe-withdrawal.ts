// POST /api/companies/{id}/safe/withdrawal (docs/api/companies.md "Money in, money out"): the Safe transaction that
// takes money out of the company's Safe, built for the card's holder to sign and execute with their own wallet.
import { Type } from 'typebox';
import { prepareSafeWithdrawal } from '../../../domain/trading/company-funds.ts';
import { route } from '../../route.ts';
import { AddressString } from '../../schemas/common.ts';
import { CompanyParams } from '../../schemas/companies.ts';
import { Amount, Decimal } from './portfolio.ts';

export const SafeWithdrawalBody = Type.Object(
  {
    amount: Amount,
    token: Type.Optional(AddressString),
    to: Type.Optional(AddressString),
  },
  { additionalProperties: false },
);

const Uint = (description: string) => Type.String({ pattern: '^[0-9]+$', description });

export const SafeWithdrawal = Type.Object({
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
});

export default route({
  method: 'POST',
  url: '/api/companies/:id/safe/withdrawal',
  auth: 'wallet',
  tag: 'companies',
  summary: "Build the Safe transaction that takes money out of the company's Safe (card holder only)",
  description:
    "The platform only builds the transaction; the card's holder signs its typed data and executes it with their own wallet (Safe execTransaction, the signature wrapped as the owner contract's: docs/api/companies.md \"Money in, money out\"). The server holds no key that can move the Safe's money. `token` defaults to USDC (USDC, the platform's two tokens or the company's token), `to` to the signer. 400 BAD_REQUEST for an amount that is not positive, has more decimals than the token, or is more than the Safe holds, or `to` the Safe itself; 403 FORBIDDEN for anyone but the card's holder; 409 CONFLICT for a company without a Safe.",
  params: CompanyParams,
  body: SafeWithdrawalBody,
  response: SafeWithdrawal,
  load: (deps, { params, body, signer }) => prepareSafeWithdrawal(deps, params.id, signer, body),
});
