// ERC-1271: asking a contract wallet (a Safe, say) whether it signed a hash. The call runs the wallet's own code, so
// it gets a fixed gas allowance and a short time: a wallet that loops cannot make the node work without limit for one
// request, and a node slow to answer cannot hold the request.
import { type Address, encodeFunctionData, type Hex, type PublicClient, parseAbi } from 'viem';
import { ERC1271_GAS, ERC1271_TIMEOUT_MS } from '../../constants.ts';
import { isChainUnavailable } from '../../errors.ts';
import { onChain } from '../errors.ts';

/** The reads an ERC-1271 check needs (a chain's public client, or a part of it). */
type Erc1271Reader = { publicClient: Pick<PublicClient, 'call' | 'getCode'> };

const ERC1271_ABI = parseAbi(['function isValidSignature(bytes32 hash, bytes signature) view returns (bytes4)']);
/** What isValidSignature answers for a valid signature: its own selector. */
const ERC1271_MAGIC_VALUE = '0x1626ba7e';

/** Whether `account` has code (only such an account can answer ERC-1271). */
export async function hasCode(chain: Erc1271Reader, account: Address): Promise<boolean> {
  const code = await onChain(() => chain.publicClient.getCode({ address: account }));
  return code !== undefined && code !== '0x';
}

/**
 * Whether the contract `account` accepts `signature` for `hash` (ERC-1271). A revert, a wrong answer, running out of
 * gas (ERC1271_GAS) or no answer within ERC1271_TIMEOUT_MS is a no.
 */
export async function isValidErc1271Signature(
  chain: Erc1271Reader,
  account: Address,
  hash: Hex,
  signature: Hex,
): Promise<boolean> {
  const data = encodeFunctionData({ abi: ERC1271_ABI, functionName: 'isValidSignature', args: [hash, signature] });
  try {
    const result = await withinTime(
      onChain(() => chain.publicClient.call({ to: account, data, gas: ERC1271_GAS })),
      ERC1271_TIMEOUT_MS,
    );
    if (result === undefined) return false;
    return (result.data ?? '0x').slice(0, 10).toLowerCase() === ERC1271_MAGIC_VALUE;
  } catch (err) {
    if (isChainUnavailable(err)) throw err;
    return false;
  }
}

/** The promise's value, or undefined once `ms` passed without one (the call itself is left to finish or fail). */
async function withinTime<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  promise.catch(() => {}); // a failure after the time is up has no one to go to
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
