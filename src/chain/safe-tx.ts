// A Safe transaction of a company's Safe (custody.ts) as its card's holder signs it: the EIP-712 typed data at the
// Safe's nonce and the owner contract's signature wrapping the holder's. Signing with a local key as the holder
// (what a wallet does in the web app) is test/helpers/safe.ts's.

import { SafeL2Abi } from '@ai-economy/shared/abis';
import { type Address, concat, type Hex, pad, toHex, zeroAddress } from 'viem';
import type { ChainClients } from './client.ts';

/** A Safe transaction, as the Safe hashes and executes it (no gas refund: the sender pays its own gas). */
export interface SafeTx {
  to: Address;
  value?: bigint;
  data: Hex;
  operation?: 0 | 1;
}

/** The EIP-712 typed data of a Safe transaction at the Safe's current nonce, for the card's holder to sign. */
export async function safeTxTypedData(
  clients: Pick<ChainClients, 'publicClient' | 'chainId'>,
  safe: Address,
  tx: SafeTx,
) {
  const nonce = await clients.publicClient.readContract({ address: safe, abi: SafeL2Abi, functionName: 'nonce' });
  return {
    domain: { chainId: clients.chainId, verifyingContract: safe },
    types: {
      SafeTx: [
        { name: 'to', type: 'address' },
        { name: 'value', type: 'uint256' },
        { name: 'data', type: 'bytes' },
        { name: 'operation', type: 'uint8' },
        { name: 'safeTxGas', type: 'uint256' },
        { name: 'baseGas', type: 'uint256' },
        { name: 'gasPrice', type: 'uint256' },
        { name: 'gasToken', type: 'address' },
        { name: 'refundReceiver', type: 'address' },
        { name: 'nonce', type: 'uint256' },
      ],
    },
    primaryType: 'SafeTx' as const,
    message: {
      to: tx.to,
      value: tx.value ?? 0n,
      data: tx.data,
      operation: tx.operation ?? 0,
      safeTxGas: 0n,
      baseGas: 0n,
      gasPrice: 0n,
      gasToken: zeroAddress,
      refundReceiver: zeroAddress,
      nonce,
    },
  };
}

/**
 * The Safe's signature bytes for its owner contract `owner` carrying the holder's signature: Safe's contract
 * signature (r = the owner, s = where the data starts, v = 0) followed by the holder's signature as dynamic bytes.
 */
export function ownerContractSignature(owner: Address, holderSignature: Hex): Hex {
  return concat([
    pad(owner, { size: 32 }),
    pad(toHex(65), { size: 32 }),
    '0x00',
    pad(toHex((holderSignature.length - 2) / 2), { size: 32 }),
    holderSignature,
  ]);
}
