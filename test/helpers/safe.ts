// The card's holder signing a company's Safe transaction with a local key, as a wallet does in the web app: for the
// tests and the economy simulation (bench/economy), which act as holders.
import { SafeL2Abi } from '@ai-economy/shared/abis';
import { encodeFunctionData, type Hex, type LocalAccount } from 'viem';
import type { ChainClients } from '../../src/chain/client.ts';
import type { CompanyCustody } from '../../src/chain/custody-scopes.ts';
import { ownerContractSignature, type SafeTx, safeTxTypedData } from '../../src/chain/safe-tx.ts';
import type { SafeWithdrawal } from '../../src/domain/trading/company-funds.ts';

/** The calldata of `execTransaction` for `tx`, signed by `holder` (the card's holder, a local key) through `owner`. */
export async function holderSignedExec(
  clients: Pick<ChainClients, 'publicClient' | 'chainId'>,
  custody: Pick<CompanyCustody, 'safe' | 'owner'>,
  holder: LocalAccount,
  tx: SafeTx,
): Promise<Hex> {
  const typed = await safeTxTypedData(clients, custody.safe, tx);
  const signature = await holder.signTypedData(typed);
  const m = typed.message;
  return encodeFunctionData({
    abi: SafeL2Abi,
    functionName: 'execTransaction',
    args: [
      m.to,
      m.value,
      m.data,
      m.operation,
      m.safeTxGas,
      m.baseGas,
      m.gasPrice,
      m.gasToken,
      m.refundReceiver,
      ownerContractSignature(custody.owner, signature),
    ],
  });
}

/** A Safe transaction the service prepared for the holder (POST /api/companies/{id}/safe/withdrawal answers one). */
export type PreparedSafeTx = Pick<SafeWithdrawal, 'safe' | 'owner' | 'typedData'>;

/**
 * The `execTransaction` call (address, ABI, arguments: what viem's writeContract takes) of a Safe transaction the
 * service prepared, signed by `holder` (the card's holder, a local key) and wrapped as its owner contract's
 * signature. Any wallet may send it; the Safe checks the signature against its nonce.
 */
export async function holderSignedCall(prepared: PreparedSafeTx, holder: LocalAccount) {
  const m = prepared.typedData.message;
  const message = {
    ...m,
    value: BigInt(m.value),
    safeTxGas: BigInt(m.safeTxGas),
    baseGas: BigInt(m.baseGas),
    gasPrice: BigInt(m.gasPrice),
    nonce: BigInt(m.nonce),
  };
  const signature = await holder.signTypedData({
    domain: prepared.typedData.domain,
    types: prepared.typedData.types,
    primaryType: 'SafeTx',
    message,
  });
  return {
    address: prepared.safe,
    abi: SafeL2Abi,
    functionName: 'execTransaction' as const,
    args: [
      message.to,
      message.value,
      message.data,
      message.operation,
      message.safeTxGas,
      message.baseGas,
      message.gasPrice,
      message.gasToken,
      message.refundReceiver,
      ownerContractSignature(prepared.owner, signature),
    ] as const,
  };
}
