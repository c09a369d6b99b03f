// The access card (contracts/AccessCard.sol): the reads a company's creation and its irreversible writes need,
// the lock of a card to its company, and the Transfer event the ownership index follows. Every read maps an
// unreachable node to CHAIN_UNAVAILABLE.

import { AccessCardAbi } from '@ai-economy/shared/abis';
import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  encodeFunctionData,
  getAbiItem,
  zeroAddress,
} from 'viem';
import type { Chain } from '../client.ts';
import { onChain } from '../errors.ts';
import type { TxRequest } from '../outbox.ts';
import { requireContract } from './addresses.ts';

type CardChain = Pick<Chain, 'publicClient' | 'contracts'>;

/** The event of every card transfer (mints and burns included). */
export const cardTransferEvent = getAbiItem({ abi: AccessCardAbi, name: 'Transfer' });

export const accessCardAddress = (chain: Pick<Chain, 'contracts'>): Address =>
  requireContract(chain.contracts, 'accessCard');

/** The latest block, at which a caller pins several reads. */
export const latestBlock = (chain: CardChain) => onChain(() => chain.publicClient.getBlockNumber({ cacheTime: 0 }));

/** The lowest-numbered card `holder` may still deploy a company with (0 when none), at `block`. */
export function canDeploy(chain: CardChain, holder: Address, block: bigint): Promise<bigint> {
  return onChain(() =>
    chain.publicClient.readContract({
      address: accessCardAddress(chain),
      abi: AccessCardAbi,
      functionName: 'canDeploy',
      args: [holder],
      blockNumber: block,
    }),
  );
}

/** Every card `holder` holds at `block`, and whether each is locked to a company, in one batch. */
export async function cardsOf(
  chain: CardChain,
  holder: Address,
  block: bigint,
): Promise<{ id: bigint; locked: boolean }[]> {
  const at = { address: accessCardAddress(chain), abi: AccessCardAbi, blockNumber: block } as const;
  const client = chain.publicClient;
  const balance = await onChain(() => client.readContract({ ...at, functionName: 'balanceOf', args: [holder] }));
  const ids = await onChain(() =>
    Promise.all(
      Array.from({ length: Number(balance) }, (_, i) =>
        client.readContract({ ...at, functionName: 'tokenOfOwnerByIndex', args: [holder, BigInt(i)] }),
      ),
    ),
  );
  const locked = await onChain(() =>
    Promise.all(ids.map((id) => client.readContract({ ...at, functionName: 'companyDeployed', args: [id] }))),
  );
  return ids.map((id, i) => ({ id, locked: locked[i]! }));
}

/** Whether the card is locked to its company for good. */
export function isLocked(chain: CardChain, tokenId: bigint): Promise<boolean> {
  return onChain(() =>
    chain.publicClient.readContract({
      address: accessCardAddress(chain),
      abi: AccessCardAbi,
      functionName: 'companyDeployed',
      args: [tokenId],
    }),
  );
}

/** The card's holder at the latest block; the zero address for a card that does not exist (burnt, never minted). */
export function holderOf(chain: CardChain, tokenId: bigint): Promise<Address> {
  return onChain(() =>
    chain.publicClient
      .readContract({
        address: accessCardAddress(chain),
        abi: AccessCardAbi,
        functionName: 'ownerOf',
        args: [tokenId],
        blockTag: 'latest',
      })
      .catch((err: unknown) => {
        // ownerOf reverts for a card that does not exist: nobody holds it.
        if (err instanceof BaseError && err.walk((e) => e instanceof ContractFunctionRevertedError)) return zeroAddress;
        throw err;
      }),
  );
}

/** The platform's transaction that locks the card to its company. */
export function lockCall(chain: Pick<Chain, 'contracts'>, tokenId: bigint): TxRequest {
  return {
    to: accessCardAddress(chain),
    data: encodeFunctionData({ abi: AccessCardAbi, functionName: 'markCompanyDeployed', args: [tokenId] }),
  };
}

/**
 * Why the platform must not run on this deployment, or undefined when it may: the access card must report every
 * transfer to the deployment's staking contract, or a card lent for one transaction keeps its boost (the card
 * refuses any other listener; zero is the state of a card deployed before the listener was made mandatory and never
 * wired). A node that does not answer is CHAIN_UNAVAILABLE.
 */
export async function cardListenerProblem(chain: CardChain): Promise<string | undefined> {
  const { accessCard, staking } = chain.contracts;
  if (!accessCard || !staking) return undefined;
  const listener = await onChain(() =>
    chain.publicClient.readContract({ address: accessCard, abi: AccessCardAbi, functionName: 'staking' }),
  );
  if (listener.toLowerCase() === staking.toLowerCase()) return undefined;
  return listener === zeroAddress
    ? `the access card ${accessCard} reports its transfers to no staking contract: run npm run cli -- deploy (it calls setStaking(${staking}))`
    : `the access card ${accessCard} reports its transfers to ${listener}, not the staking contract ${staking}: run npm run cli -- deploy`;
}
