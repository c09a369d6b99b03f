// Readable reverts. A node reports a custom error as raw bytes (anvil even renders them into its message, NUL bytes
// and all); decoding them with the errors of every contract the platform deploys or calls gives `ErrorName(args)`,
// which is what a person or a log needs, and is always storable text.
import { type Abi, BaseError, decodeErrorResult, type Hex } from 'viem';
import { storableText } from '../text.ts';
import * as abis from './generated/abis.ts';

type AbiError = Extract<Abi[number], { type: 'error' }>;

/** Every custom error of the platform's contracts (and the v4 PoolManager's), each signature once. */
export const PLATFORM_ERRORS: Abi = (() => {
  const bySignature = new Map<string, AbiError>();
  for (const abi of Object.values(abis)) {
    if (!Array.isArray(abi)) continue;
    for (const item of abi as Abi) {
      if (item.type !== 'error') continue;
      const signature = `${item.name}(${item.inputs.map((i) => i.type).join(',')})`;
      if (!bySignature.has(signature)) bySignature.set(signature, item);
    }
  }
  return [...bySignature.values()];
})();

const REVERT_DATA = /^0x[0-9a-fA-F]{8}(?:[0-9a-fA-F]{2})*$/;

/** The revert data somewhere in a viem error's causes (the node's JSON-RPC error carries it), if any. */
export function revertDataOf(err: unknown): Hex | undefined {
  if (!(err instanceof BaseError)) return undefined;
  let found: Hex | undefined;
  err.walk((e) => {
    const data = (e as { data?: unknown }).data;
    const hex = typeof data === 'string' ? data : (data as { data?: unknown } | undefined)?.data;
    if (typeof hex === 'string' && REVERT_DATA.test(hex)) found = hex as Hex;
    return found !== undefined;
  });
  return found;
}

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
