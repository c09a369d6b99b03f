// The treasury's acceptance (docs/api/companies.md "Treasury"): an EIP-712 signature by the new treasury over
// `{ companyId, treasury, chainId, deadline }`, so no company can name an address it does not control. An EOA's
// signature is recovered locally; a contract wallet (a Safe, say) answers through ERC-1271 with capped gas.
import { type Address, type Hex, hashTypedData, isAddressEqual, recoverAddress } from 'viem';
import type { Chain } from '../../chain/client.ts';
import { hasCode, isValidErc1271Signature } from '../../chain/contracts/erc1271.ts';
import { TREASURY_ACCEPTANCE_DOMAIN, TREASURY_ACCEPTANCE_MAX_S } from '../../constants.ts';
import { forbidden } from '../../errors.ts';

export const TREASURY_ACCEPTANCE_TYPES = {
  TreasuryAcceptance: [
    { name: 'companyId', type: 'string' },
    { name: 'treasury', type: 'address' },
    { name: 'chainId', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
  ],
} as const;

export interface TreasuryAcceptance {
  /** Unix seconds by the chain's clock, after its time now and at most TREASURY_ACCEPTANCE_MAX_S ahead. */
  deadline: number;
  /** 0x-hex (the route's schema checks the shape). */
  signature: string;
}

/** What the treasury signs (viem's signTypedData takes it as it is). */
export function treasuryAcceptanceTypedData(companyId: string, treasury: Address, chainId: number, deadline: number) {
  return {
    domain: { ...TREASURY_ACCEPTANCE_DOMAIN, chainId },
    types: TREASURY_ACCEPTANCE_TYPES,
    primaryType: 'TreasuryAcceptance' as const,
    message: { companyId, treasury, chainId: BigInt(chainId), deadline: BigInt(deadline) },
  };
}

/**
 * 403 FORBIDDEN unless `treasury` signed its acceptance of `companyId` on this chain with a deadline that has not
 * passed by the chain's clock (`chainNow`, seconds) and lies at most TREASURY_ACCEPTANCE_MAX_S ahead of it.
 */
export async function requireTreasuryAcceptance(
  chain: Pick<Chain, 'publicClient'> & { chainId: number },
  companyId: string,
  treasury: Address,
  acceptance: TreasuryAcceptance | undefined,
  chainNow: bigint,
): Promise<void> {
  const how = `sign the EIP-712 TreasuryAcceptance { companyId, treasury, chainId, deadline } with the treasury's own key (or its contract wallet's ERC-1271) and send it as acceptance { deadline, signature } (docs/api/companies.md "Treasury")`;
  if (!acceptance) {
    throw forbidden(
      `${treasury} is not your wallet: a treasury other than the creator's own must accept the company; ${how}`,
    );
  }
  const deadline = BigInt(acceptance.deadline);
  if (deadline <= chainNow) {
    throw forbidden(
      `The treasury's acceptance expired at ${acceptance.deadline}; the chain's time is ${chainNow}: ${how}`,
    );
  }
  if (deadline > chainNow + BigInt(TREASURY_ACCEPTANCE_MAX_S)) {
    throw forbidden(
      `The treasury's acceptance runs until ${acceptance.deadline}, more than ${TREASURY_ACCEPTANCE_MAX_S} s after the chain's time ${chainNow}: choose a nearer deadline`,
    );
  }
  const hash = hashTypedData(treasuryAcceptanceTypedData(companyId, treasury, chain.chainId, acceptance.deadline));
  if (!(await signedBy(chain, treasury, hash, acceptance.signature as Hex))) {
    throw forbidden(
      `The acceptance was not signed by ${treasury} for company ${companyId} on chain ${chain.chainId} with deadline ${acceptance.deadline}: ${how}`,
    );
  }
}

async function signedBy(chain: Pick<Chain, 'publicClient'>, account: Address, hash: Hex, signature: Hex) {
  if (signature.length === 132) {
    try {
      if (isAddressEqual(await recoverAddress({ hash, signature }), account)) return true;
    } catch {
      // not a valid ECDSA signature; a contract wallet may still accept it
    }
  }
  return (await hasCode(chain, account)) && isValidErc1271Signature(chain, account, hash, signature);
}
