// The companies of the connected wallet: those bound to the access cards it holds (a company's rewards are claimed
// by its card's holder). The cards are read from the card contract (ERC-721 enumerable) at one block, each card's
// company from GET /api/cards/{tokenId}.

import { AccessCardAbi } from '@ai-economy/shared/abis';
import { useQuery } from '@tanstack/react-query';
import type { Address, PublicClient } from 'viem';
import { usePublicClient } from 'wagmi';
import { api, data } from './api';
import { useChainInfo } from './wallet';

export interface WalletCompany {
  id: string;
  name: string;
  slug: string;
  cardTokenId: number;
}

/** A card the wallet holds, with the company bound to it, or null while it is unused. */
export interface WalletCard {
  cardTokenId: number;
  company: { id: string; name: string; slug: string } | null;
}

/** The ids of the access cards `wallet` holds, in the contract's order, read at one block. */
async function cardIdsOf(client: PublicClient, card: Address, wallet: Address): Promise<bigint[]> {
  const blockNumber = await client.getBlockNumber({ cacheTime: 0 });
  const read = { address: card, abi: AccessCardAbi, blockNumber } as const;
  const count = await client.readContract({ ...read, functionName: 'balanceOf', args: [wallet] });
  return Promise.all(
    Array.from({ length: Number(count) }, (_, i) =>
      client.readContract({ ...read, functionName: 'tokenOfOwnerByIndex', args: [wallet, BigInt(i)] }),
    ),
  );
}

/** The ids of the access cards the wallet holds (the staking page's boost). */
export function useWalletCardIds(wallet: Address | undefined) {
  const client = usePublicClient();
  const card = useChainInfo().contracts.accessCard as Address;
  return useQuery({
    queryKey: ['wallet-card-ids', wallet],
    enabled: !!wallet && !!client,
    queryFn: () => cardIdsOf(client!, card, wallet!),
  });
}

/** The access cards the wallet holds, in the contract's order, each with its company or null. */
export function useWalletCards(wallet: Address | undefined) {
  const client = usePublicClient();
  const card = useChainInfo().contracts.accessCard as Address;
  return useQuery({
    queryKey: ['wallet-cards', wallet],
    enabled: !!wallet && !!client,
    queryFn: async (): Promise<WalletCard[]> => {
      const ids = await cardIdsOf(client!, card, wallet!);
      const bound = await Promise.all(
        ids.map((id) => data(api.GET('/api/cards/{tokenId}', { params: { path: { tokenId: Number(id) } } }))),
      );
      return bound.map((b) => ({ cardTokenId: b.cardTokenId, company: b.company }));
    },
  });
}

export function useWalletCompanies(wallet: Address | undefined) {
  const cards = useWalletCards(wallet);
  const companies: WalletCompany[] | undefined = cards.data?.flatMap((c) =>
    c.company ? [{ ...c.company, cardTokenId: c.cardTokenId }] : [],
  );
  return { ...cards, data: companies };
}
