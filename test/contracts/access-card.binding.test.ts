// AccessCard company binding: canDeploy(account), markCompanyDeployed(tokenId) (platform only, permanent),
// companyDeployed(tokenId) and companyOwner(tokenId), and how all of them follow card transfers.

import { AccessCardAbi } from '@ai-economy/shared/abis';
import type { Address } from 'viem';
import { describe, expect, it } from 'vitest';
import { expectRevert } from '../helpers/revert.ts';
import { useCardChain } from './fixture.ts';

const f = useCardChain();

const canDeploy = (account: Address) =>
  f.client.readContract({ address: f.card, abi: AccessCardAbi, functionName: 'canDeploy', args: [account] });
const companyDeployed = (tokenId: bigint) =>
  f.client.readContract({ address: f.card, abi: AccessCardAbi, functionName: 'companyDeployed', args: [tokenId] });
const companyOwner = (tokenId: bigint) =>
  f.client.readContract({ address: f.card, abi: AccessCardAbi, functionName: 'companyOwner', args: [tokenId] });

/** markCompanyDeployed from account i (0 is the platform). */
const mark = (tokenId: bigint, i = 0) =>
  f.send(
    f
      .wallet(i)
      .writeContract({ address: f.card, abi: AccessCardAbi, functionName: 'markCompanyDeployed', args: [tokenId] }),
  );

/** Card `tokenId` from account i to account j (transferFrom, or safeTransferFrom when `safe`). */
function transfer(i: number, j: number, tokenId: bigint, safe = false) {
  const base = { address: f.card, abi: AccessCardAbi } as const;
  return f.send(
    safe
      ? f.wallet(i).writeContract({ ...base, functionName: 'safeTransferFrom', args: [f.addr(i), f.addr(j), tokenId] })
      : f.wallet(i).writeContract({ ...base, functionName: 'transferFrom', args: [f.addr(i), f.addr(j), tokenId] }),
  );
}

const setPlatform = (i: number) =>
  f.send(
    f.wallet(0).writeContract({ address: f.card, abi: AccessCardAbi, functionName: 'setPlatform', args: [f.addr(i)] }),
  );

describe('canDeploy(account)', () => {
  it('is 0 for an account without a card', async () => {
    expect(await canDeploy(f.addr(1))).toBe(0n);
    await f.mint(2);
    expect(await canDeploy(f.addr(1))).toBe(0n);
    expect(await canDeploy(f.addr(2))).toBe(1n);
  });

  it('returns the lowest unused id and skips ids marked deployed, down to 0 when all are used', async () => {
    await f.mint(2); // id 1 belongs to someone else
    await f.mintBatch(1, 3); // ids 2, 3, 4
    expect(await canDeploy(f.addr(1))).toBe(2n);
    await mark(3n);
    expect(await canDeploy(f.addr(1))).toBe(2n);
    await mark(2n);
    expect(await canDeploy(f.addr(1))).toBe(4n);
    await mark(4n);
    expect(await canDeploy(f.addr(1))).toBe(0n);
    expect(await canDeploy(f.addr(2))).toBe(1n);
  });

  it('returns the lowest id even when the account enumerates its cards in another order', async () => {
    await f.mint(2); // id 1
    await f.mintBatch(1, 2); // ids 2, 3
    await transfer(2, 1, 1n); // account 1 now enumerates 2, 3, 1
    const enumerated = await Promise.all(
      [0n, 1n, 2n].map((i) =>
        f.client.readContract({
          address: f.card,
          abi: AccessCardAbi,
          functionName: 'tokenOfOwnerByIndex',
          args: [f.addr(1), i],
        }),
      ),
    );
    expect(enumerated).toEqual([2n, 3n, 1n]);
    expect(await canDeploy(f.addr(1))).toBe(1n);
    await mark(1n);
    expect(await canDeploy(f.addr(1))).toBe(2n);
  });

  it('follows transfers: a card sent away no longer counts, a received one does', async () => {
    await f.mint(1); // id 1
    await f.mint(2); // id 2
    await transfer(1, 3, 1n);
    expect(await canDeploy(f.addr(1))).toBe(0n);
    expect(await canDeploy(f.addr(3))).toBe(1n);
    await transfer(2, 3, 2n, true);
    expect(await canDeploy(f.addr(2))).toBe(0n);
    expect(await canDeploy(f.addr(3))).toBe(1n);
    await mark(1n);
    expect(await canDeploy(f.addr(3))).toBe(2n);
  });

  it('does not count a received card that is already deployed', async () => {
    await f.mint(1);
    await mark(1n);
    await transfer(1, 2, 1n);
    expect(await canDeploy(f.addr(2))).toBe(0n);
  });
});

describe('markCompanyDeployed(tokenId)', () => {
  it('locks the card for the platform, emits CompanyDeployed(tokenId, holder) and leaves other cards alone', async () => {
    await f.mintBatch(1, 2);
    expect([await companyDeployed(1n), await companyDeployed(2n)]).toEqual([false, false]);
    const receipt = await mark(2n);
    expect(f.cardEvents(receipt).map((e) => [e.eventName, e.args])).toEqual([
      ['CompanyDeployed', { tokenId: 2n, holder: f.addr(1) }],
    ]);
    expect([await companyDeployed(1n), await companyDeployed(2n)]).toEqual([false, true]);
  });

  it('is permanent: a second call reverts with AccessCardAlreadyDeployed, also after a transfer', async () => {
    await f.mint(1);
    await mark(1n);
    await f.minedRevert(0, { functionName: 'markCompanyDeployed', args: [1n] }, 'AccessCardAlreadyDeployed', [1n]);
    await transfer(1, 2, 1n);
    expect(await companyDeployed(1n)).toBe(true);
    expect(await companyOwner(1n)).toBe(f.addr(2));
    await f.minedRevert(0, { functionName: 'markCompanyDeployed', args: [1n] }, 'AccessCardAlreadyDeployed', [1n]);
    await transfer(2, 1, 1n, true);
    expect(await companyDeployed(1n)).toBe(true);
  });

  it('ERC721NonexistentToken for ids never minted, 0 included', async () => {
    await f.mint(1);
    for (const id of [0n, 2n, 10_001n]) {
      await f.minedRevert(0, { functionName: 'markCompanyDeployed', args: [id] }, 'ERC721NonexistentToken', [id]);
    }
    expect(await companyDeployed(2n)).toBe(false);
  });

  it('AccessCardUnauthorizedPlatform for anyone else, the holder included, checked before the token', async () => {
    await f.mint(1);
    for (const i of [1, 2]) {
      await f.minedRevert(i, { functionName: 'markCompanyDeployed', args: [1n] }, 'AccessCardUnauthorizedPlatform', [
        f.addr(i),
      ]);
    }
    await f.minedRevert(2, { functionName: 'markCompanyDeployed', args: [99n] }, 'AccessCardUnauthorizedPlatform', [
      f.addr(2),
    ]);
    expect(await companyDeployed(1n)).toBe(false);
  });

  it('follows setPlatform: the owner is refused once the platform is another address, the new platform may mark', async () => {
    await f.mintBatch(1, 2);
    await setPlatform(5);
    await f.minedRevert(0, { functionName: 'markCompanyDeployed', args: [1n] }, 'AccessCardUnauthorizedPlatform', [
      f.addr(0),
    ]);
    const receipt = await mark(1n, 5);
    expect(f.cardEvents(receipt).map((e) => e.eventName)).toEqual(['CompanyDeployed']);
    expect(await companyDeployed(1n)).toBe(true);
    await setPlatform(6);
    await f.minedRevert(5, { functionName: 'markCompanyDeployed', args: [2n] }, 'AccessCardUnauthorizedPlatform', [
      f.addr(5),
    ]);
    await mark(2n, 6);
  });

  it('names the holder at the time of the call in CompanyDeployed', async () => {
    await f.mint(1);
    await transfer(1, 4, 1n);
    const receipt = await mark(1n);
    expect(f.cardEvents(receipt).map((e) => e.args)).toEqual([{ tokenId: 1n, holder: f.addr(4) }]);
  });
});

describe('companyDeployed(tokenId) and companyOwner(tokenId)', () => {
  it('companyDeployed is false for unknown ids instead of reverting', async () => {
    expect(await companyDeployed(0n)).toBe(false);
    expect(await companyDeployed(42n)).toBe(false);
  });

  it('companyOwner follows transfers and equals ownerOf', async () => {
    await f.mint(1);
    expect(await companyOwner(1n)).toBe(f.addr(1));
    await transfer(1, 2, 1n);
    expect(await companyOwner(1n)).toBe(f.addr(2));
    await transfer(2, 3, 1n, true);
    await mark(1n);
    await transfer(3, 7, 1n);
    const ownerOf = await f.client.readContract({
      address: f.card,
      abi: AccessCardAbi,
      functionName: 'ownerOf',
      args: [1n],
    });
    expect(await companyOwner(1n)).toBe(f.addr(7));
    expect(ownerOf).toBe(f.addr(7));
  });

  it('companyOwner reverts with ERC721NonexistentToken for ids never minted', async () => {
    await expectRevert(companyOwner(0n), 'ERC721NonexistentToken', [0n]);
    await expectRevert(companyOwner(1n), 'ERC721NonexistentToken', [1n]);
  });
});
