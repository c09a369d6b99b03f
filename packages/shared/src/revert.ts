// The errors a revert can carry, and where a viem error keeps its revert data. A node reports a custom error as raw
// bytes; decoding them with the errors of every contract the platform deploys or calls gives its name and arguments.
// The service writes them as `ErrorName(args)` for its logs and records (src/chain/revert.ts), the web app as a
// sentence for the person trading (web/src/chain-errors.ts).
import { type Abi, BaseError, type Hex } from 'viem';
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

/**
 * The revert data somewhere in a viem error's causes, if any: a decoded call's `raw`, or the node's JSON-RPC error
 * `data` (a string, or an object holding it).
 */
export function revertDataOf(err: unknown): Hex | undefined {
  if (!(err instanceof BaseError)) return undefined;
  let found: Hex | undefined;
  err.walk((e) => {
    const { raw, data } = e as { raw?: unknown; data?: unknown };
    for (const candidate of [raw, data, (data as { data?: unknown } | undefined)?.data]) {
      if (typeof candidate === 'string' && REVERT_DATA.test(candidate)) found = candidate as Hex;
    }
    return found !== undefined;
  });
  return found;
}
