// The summary of who holds the contracts' powers that GET /api/chain shows (`roles`), read from the chain and kept
// for ROLES_CACHE_MS: the owner and the oracle change only through the timelock, so a minute-old answer is true
// enough, and polling the route never turns into load on the RPC provider. A read that fails is asked again next time.

import { EpochDistributorAbi, PlatformTimelockAbi } from '@ai-economy/shared/abis';
import { type Address, getAddress } from 'viem';
import type { Chain } from './client.ts';
import { OWNABLE_ABI } from './deploy-owner.ts';

export const ROLES_CACHE_MS = 60_000;

export interface ChainRoles {
  service: Address;
  oracle: Address | null;
  owner: Address | null;
  ownerDelaySeconds: number | null;
}

async function readChainRoles(chain: Pick<Chain, 'publicClient' | 'contracts' | 'platform'>): Promise<ChainRoles> {
  const { contracts: c, publicClient } = chain;
  const [oracle, owner, delay] = await Promise.all([
    c.distributor
      ? publicClient.readContract({ address: c.distributor, abi: EpochDistributorAbi, functionName: 'oracle' })
      : null,
    c.accessCard ? publicClient.readContract({ address: c.accessCard, abi: OWNABLE_ABI, functionName: 'owner' }) : null,
    c.timelock
      ? publicClient.readContract({ address: c.timelock, abi: PlatformTimelockAbi, functionName: 'getMinDelay' })
      : null,
  ]);
  const isTimelock = owner !== null && c.timelock !== undefined && getAddress(owner) === getAddress(c.timelock);
  return {
    service: chain.platform.account.address,
    oracle: oracle === null ? null : getAddress(oracle),
    owner: owner === null ? null : getAddress(owner),
    ownerDelaySeconds: isTimelock && delay !== null ? Number(delay) : null,
  };
}

/**
 * The roles, read at most once per ROLES_CACHE_MS. While the chain does not answer (an error, or nothing within
 * `waitMs`), the route still answers: `service` is known without the chain, the rest is null (unknown) until a read
 * succeeds, and the last good answer is kept meanwhile.
 */
export function createChainRoles(
  chain: Pick<Chain, 'publicClient' | 'contracts' | 'platform'>,
  waitMs = 2000,
): () => Promise<ChainRoles> {
  const unknown: ChainRoles = {
    service: chain.platform.account.address,
    oracle: null,
    owner: null,
    ownerDelaySeconds: null,
  };
  let good: ChainRoles | undefined;
  let last: { at: number; roles: Promise<ChainRoles | undefined> } | undefined;
  return async () => {
    const now = performance.now();
    if (last === undefined || now - last.at >= ROLES_CACHE_MS) {
      const roles = readChainRoles(chain).then(
        (r) => {
          good = r;
          return r;
        },
        () => {
          // Asked again on the next request.
          if (last?.roles === roles) last = undefined;
          return undefined;
        },
      );
      last = { at: now, roles };
    }
    let timer: NodeJS.Timeout | undefined;
    const waited = await Promise.race([
      last.roles,
      new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), waitMs);
      }),
    ]);
    clearTimeout(timer);
    return waited ?? good ?? unknown;
  };
}
