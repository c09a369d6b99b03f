// Decodes the custom error a contract call reverted with, for tests that assert on error names and arguments.
import { type Abi, BaseError, ContractFunctionRevertedError, decodeErrorResult } from 'viem';
import { expect } from 'vitest';

export interface DecodedRevert {
  errorName: string;
  args: readonly unknown[];
}

/**
 * The custom error inside a viem error (found with `BaseError.walk`). viem decodes it with the ABI of the called
 * contract; `errorAbi` decodes errors that ABI lacks, such as an ERC-20 error bubbling up through the caller.
 */
export function revertOf(err: unknown, errorAbi: Abi = []): DecodedRevert {
  if (!(err instanceof BaseError)) throw new Error(`expected a viem error, got: ${String(err)}`);
  const reverted = err.walk((e) => e instanceof ContractFunctionRevertedError);
  if (!(reverted instanceof ContractFunctionRevertedError)) {
    throw new Error(`expected a contract revert, got: ${err.shortMessage}`);
  }
  if (reverted.data) return { errorName: reverted.data.errorName, args: reverted.data.args ?? [] };
  if (reverted.raw && reverted.raw !== '0x') {
    const decoded = decodeErrorResult({ abi: errorAbi, data: reverted.raw });
    return { errorName: decoded.errorName, args: decoded.args ?? [] };
  }
  throw new Error(`revert without error data: ${reverted.reason ?? reverted.shortMessage}`);
}

/** Awaits `call`, expects it to revert with `errorName` (and `args` when given), and returns the decoded error. */
export async function expectRevert(
  call: Promise<unknown>,
  errorName: string,
  args?: readonly unknown[],
  errorAbi?: Abi,
): Promise<DecodedRevert> {
  const outcome = await call.then(
    () => ({ ok: true as const }),
    (err: unknown) => ({ ok: false as const, err }),
  );
  if (outcome.ok) throw new Error(`expected a revert with ${errorName}, but the call succeeded`);
  const decoded = revertOf(outcome.err, errorAbi);
  expect(decoded.errorName).toBe(errorName);
  if (args) expect(decoded.args).toEqual(args);
  return decoded;
}
