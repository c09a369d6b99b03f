// The companies of the connected wallet: those bound to the access cards it holds (a company's rewards are claimed
// by its card's holder). The cards are read from the card contract (ERC-721 enumerable) at one block, each card's
// company from GET /api/cards/{tokenId}.
import { useQuery } from '@tanstack/react-query';
import type { Address } from 'viem';
import { usePublicClient } from 'wagmi';
import { AccessCardAbi } from '../../src/chain/generated/abis';
import { api, data } from './api';
import { useChainInfo } from './wallet';

export interface WalletCompany {
  id: string;
  name: string;
  slug: string;
  cardTokenId: number;
}

export function useWalletCompanies(wallet: Address | undefined) {
  const client = usePublicClient();
  const card = useChainInfo().contracts.accessCard as Address;
  return useQuery({
    queryKey: ['wallet-companies', wallet],
    enabled: !!wallet && !!client,
    queryFn: async (): Promise<WalletCompany[]> => {
      const blockNumber = await client!.getBlockNumber({ cacheTime: 0 });
      const read = { address: card, abi: AccessCardAbi, blockNumber } as const;
      const count = await client!.readContract({ ...read, functionName: 'balanceOf', args: [wallet!] });
      const ids = await Promise.all(
        Array.from({ length: Number(count) }, (_, i) =>
          client!.readContract({ ...read, functionName: 'tokenOfOwnerByIndex', args: [wallet!, BigInt(i)] }),
        ),
      );
      const bound = await Promise.all(
        ids.map((id) => data(api.GET('/api/cards/{tokenId}', { params: { path: { tokenId: Number(id) } } }))),
      );
      return bound.flatMap((b) => (b.company ? [{ ...b.company, cardTokenId: b.cardTokenId }] : []));
    },
  });
}
