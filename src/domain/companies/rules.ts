// Rules every company operation shares: who may act, and what follows from the autonomy level.
import { type Address, isAddressEqual } from 'viem';
import { forbidden } from '../../errors.ts';

/** League follows autonomy (DESIGN.md): human-directed companies play in HUMAN, the others in MACHINE. */
export const leagueOf = (autonomyLevel: string) => (autonomyLevel === 'HUMAN_DIRECTED' ? 'HUMAN' : 'MACHINE');

/** 403 FORBIDDEN unless the signer is the company's creator (the current holder of its card). */
export function requireCreator(company: { creatorAddress: string; id: string }, signer: Address | undefined) {
  if (!signer || !isAddressEqual(company.creatorAddress as Address, signer)) {
    throw forbidden(`Only the creator of company ${company.id} (the holder of its access card) may do this`);
  }
}
