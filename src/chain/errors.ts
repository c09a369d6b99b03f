// Classifies errors at the RPC boundary: a node that does not answer (timeout, refused, HTTP failure) is
// CHAIN_UNAVAILABLE (503); a contract revert is the caller's business and stays as it is.
import { BaseError, HttpRequestError, TimeoutError } from 'viem';
import { AppError } from '../errors.ts';

export function isChainUnavailable(err: unknown): boolean {
  if (!(err instanceof BaseError)) return false;
  const cause = err.walk((e) => e instanceof HttpRequestError || e instanceof TimeoutError);
  return cause instanceof HttpRequestError || cause instanceof TimeoutError;
}

export function chainUnavailable(err: unknown): AppError {
  return new AppError('CHAIN_UNAVAILABLE', 'The chain RPC did not answer in time; try again shortly', { cause: err });
}

/** Runs a chain call, turning an unreachable node into CHAIN_UNAVAILABLE. */
export async function onChain<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (isChainUnavailable(err)) throw chainUnavailable(err);
    throw err;
  }
}
