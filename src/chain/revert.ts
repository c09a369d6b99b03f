// Readable reverts. A node reports a custom error as raw bytes (anvil even renders them into its message, NUL bytes
// and all); decoding them with the errors of every contract the platform deploys or calls (PLATFORM_ERRORS, shared
// with the web app) gives `ErrorName(args)`, which is what a log or a stored record needs, and is always storable text.
import { PLATFORM_ERRORS, revertDataOf } from '@ai-economy/shared/revert';
import { BaseError, decodeErrorResult, type Hex } from 'viem';
import { storableText } from '../text.ts';

const renderArg = (value: unknown): string =>
  typeof value === 'bigint'
    ? value.toString()
    : Array.isArray(value)
      ? `[${value.map(renderArg).join(', ')}]`
      : typeof value === 'string'
        ? value
        : JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));

/** `ErrorName(arg, ...)` for revert data; `Error(reason)` and `Panic(code)` included; the selector when unknown. */
export function decodeRevert(data: Hex): string {
  try {
    const { errorName, args } = decodeErrorResult({ abi: PLATFORM_ERRORS, data });
    if (errorName === 'Error') return `reverted: ${storableText(String(args?.[0] ?? ''))}`;
    return `${errorName}(${(args ?? []).map(renderArg).join(', ')})`;
  } catch {
    return `unknown custom error ${data.slice(0, 10)}`;
  }
}

/**
 * What went wrong with a chain call, in words fit to store and show: the decoded revert when there is one, else
 * viem's short message, else the error's message; always storable and bounded.
 */
export function describeChainError(err: unknown): string {
  const data = revertDataOf(err);
  if (data) return storableText(`execution reverted: ${decodeRevert(data)}`);
  if (err instanceof BaseError) return storableText(err.shortMessage);
  return storableText(err instanceof Error ? err.message : String(err));
}
