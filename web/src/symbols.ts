// The platform tokens' symbols, read once from their contracts: every amount of the primary token (staked, rewards)
// or the emission token (staking's reward) is shown with its symbol.
import { type Address, erc20Abi } from 'viem';
import { useReadContracts } from 'wagmi';
import type { Unit } from './format';
import { useChainInfo } from './wallet';

export interface PlatformUnits {
  primary: Unit;
  emission: Unit;
}

/** The primary and emission tokens as units (18 decimals); a generic name until their symbols are read. */
export function usePlatformUnits(): PlatformUnits {
  const { contracts } = useChainInfo();
  const symbols = useReadContracts({
    contracts: [
      { address: contracts.primaryToken as Address, abi: erc20Abi, functionName: 'symbol' },
      { address: contracts.emissionToken as Address, abi: erc20Abi, functionName: 'symbol' },
    ],
    allowFailure: false,
    query: { staleTime: Number.POSITIVE_INFINITY, enabled: !!contracts.primaryToken && !!contracts.emissionToken },
  });
  const [primary, emission] = (symbols.data ?? ['primary tokens', 'emission tokens']) as [string, string];
  return { primary: { symbol: primary, decimals: 18 }, emission: { symbol: emission, decimals: 18 } };
}

/** What the two platform tokens are, in a sentence a newcomer reads beside their symbols. */
export function platformTokensInWords(units: PlatformUnits): string {
  return `${units.primary.symbol} is the platform's own token: it is what you stake on the Staking page, and the epoch rewards of companies are paid in it. ${units.emission.symbol} is what staking earns, emitted every second to the stakers in proportion to their effective stake (an access card raises it).`;
}
