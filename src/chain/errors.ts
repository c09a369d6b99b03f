// Chain calls made where a node may not answer: an unreachable node becomes CHAIN_UNAVAILABLE (503, the
// classification of src/errors.ts); a contract revert is the caller's business and stays as it is.
import { chainUnavailable, isChainUnavailable } from '../errors.ts';

/** Runs a chain call, turning an unreachable node into CHAIN_UNAVAILABLE. */
export async function onChain<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (isChainUnavailable(err)) throw chainUnavailable(err);
    throw err;
  }
}
