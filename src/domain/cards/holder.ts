// Who may act for a company: the holder of its access card. Every operation an owner signs (its settings, its
// agents, its token, its treasury, its rewards, a manual round) asks here first; agents and companies both use it,
// so neither depends on the other for it.
import { type Address, isAddressEqual } from 'viem';
import { holderOf } from '../../chain/contracts/access-card.ts';
import { forbidden } from '../../errors.ts';
import type { Deps } from '../deps.ts';

/** 403 FORBIDDEN unless the signer is the company's creator (the current holder of its card, as indexed). */
export function requireCreator(company: { creatorAddress: string; id: string }, signer: Address | undefined) {
  if (!signer || !isAddressEqual(company.creatorAddress as Address, signer)) {
    throw forbidden(`Only the creator of company ${company.id} (the holder of its access card) may do this`);
  }
}

/**
 * 403 FORBIDDEN unless the signer holds the company's card now. The indexed creator answers first (a stranger is
 * refused without a chain call); then the card's owner is read on-chain at the latest block, because the index
 * trails the chain by seconds (longer with confirmations) and in that time the previous holder could still act:
 * writes that cannot be undone ask the chain. An unreachable chain answers 503 CHAIN_UNAVAILABLE.
 */
export async function requireCardHolder(
  deps: Pick<Deps, 'chain'>,
  company: { id: string; creatorAddress: string; cardTokenId: number },
  signer: Address | undefined,
): Promise<void> {
  requireCreator(company, signer);
  const owner = await holderOf(deps.chain, BigInt(company.cardTokenId));
  if (!isAddressEqual(owner, signer!)) {
    throw forbidden(
      `The access card of company ${company.id} has moved to ${owner}: only its holder may do this (the platform's records catch up within seconds)`,
    );
  }
}
