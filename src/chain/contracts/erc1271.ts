// ERC-1271: asking a contract wallet (a Safe, say) whether it signed a hash. The call runs the wallet's own code, so
// it gets a fixed gas allowance: a wallet that loops cannot make the node work without limit for one request.
import { type Address, encodeFunctionData, type Hex, parseAbi } from 'viem';
import { isChainUnavailable } from '../../errors.ts';
import type { Chain } from '../client.ts';
import { onChain } from '../errors.ts';

const ERC1271_ABI = parseAbi(['function isValidSignature(bytes32 hash, bytes signature) view returns (bytes4)']);
/** What isValidSignature answers for a valid signature: its own selector. */
const ERC1271_MAGIC_VALUE = '0x1626ba7e';
/** Gas one check may use: a Safe's check of a few owners' signatures takes well under 100,000. */
export const ERC1271_GAS = 200_000n;

/** Whether `account` has code (only such an account can answer ERC-1271). */
export async function hasCode(chain: Pick<Chain, 'publicClient'>, account: Address): Promise<boolean> {
  const code = await onChain(() => chain.publicClient.getCode({ address: account }));
  return code !== undefined && code !== '0x';
}

/**
 * Whether the contract `account` accepts `signature` for `hash` (ERC-1271). A revert, a wrong answer or running out
 * of gas is a no.
 */
export async function isValidErc1271Signature(
  chain: Pick<Chain, 'publicClient'>,
  account: Address,
  hash: Hex,
  signature: Hex,
): Promise<boolean> {
  const data = encodeFunctionData({ abi: ERC1271_ABI, functionName: 'isValidSignature', args: [hash, signature] });
  try {
    const result = await onChain(() => chain.publicClient.call({ to: account, data, gas: ERC1271_GAS }));
    return (result.data ?? '0x').slice(0, 10).toLowerCase() === ERC1271_MAGIC_VALUE;
  } catch (err) {
    if (isChainUnavailable(err)) throw err;
    return false;
  }
}
