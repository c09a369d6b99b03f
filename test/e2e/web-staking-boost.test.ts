// The staking page and a better card: a stake boosted by a Silver card whose wallet then receives a Black card (bought
// from another holder) is offered the Black card's boost, in words and units, and applying it names that card. A
// stake's boost never rises by itself (the contract records one card), so without the offer the wallet would earn at
// x2 while holding a x5 card.
import { AccessCardAbi } from '@ai-economy/shared/abis';
import { describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import { useTestApp } from '../helpers/app.ts';
import { atBothWidths, browserUnavailable } from '../helpers/browser.ts';
import { mintCard, openCardTranche } from '../helpers/companies.ts';
import { useWebApp } from '../helpers/web.ts';

const t = useTestApp();
const web = useWebApp(t);

/** The staker, and the holder who passes it a Black card. */
const STAKER = 1;
const HOLDER = 2;

describe.skipIf(browserUnavailable)('a better card than the one a stake uses', () => {
  it("offers the better card's boost and applies it, naming the card", async () => {
    const black = await mintCard(t.chain, HOLDER);
    await openCardTranche(t.chain, 2);
    await openCardTranche(t.chain, 3);
    const silver = await mintCard(t.chain, STAKER);
    expect([black < 1001n, silver >= 4001n]).toEqual([true, true]);

    const opened = await web.open('/staking', { width: 1440, account: STAKER });
    const { page } = opened;
    const boost = () => page.getByTestId('boost').textContent();
    await page.getByRole('heading', { name: 'Your position' }).waitFor();
    await expect.poll(boost, { timeout: 15_000 }).toBe('none yet: your card boosts the stake you make');
    await page.getByLabel('Amount of AIE').fill('100');
    await page.getByRole('button', { name: 'Stake', exact: true }).click();
    await page.locator('output.notice').getByText('Staked 100 AIE, boosted by your card.').waitFor({ timeout: 60_000 });
    await expect.poll(boost, { timeout: 15_000 }).toBe('SILVER card, x2');
    expect(await page.getByRole('button', { name: /^Apply my .* card's boost/ }).count()).toBe(0);

    // The Black card arrives from another holder.
    const client = t.chain.chain.publicClient;
    await client.waitForTransactionReceipt({
      hash: await t.chain.wallet(HOLDER).writeContract({
        address: t.chain.chain.contracts.accessCard!,
        abi: AccessCardAbi,
        functionName: 'transferFrom',
        args: [devAccount(HOLDER).address, devAccount(STAKER).address, black],
      }),
    });
    await page.reload();
    await expect
      .poll(boost, { timeout: 15_000 })
      .toBe(`SILVER card, x2 · your Black card #${black} would boost x5: apply it below`);
    const apply = page.getByRole('button', { name: "Apply my Black card's boost (x5)" });
    await atBothWidths(page, 'staking-better-card');
    await apply.click();
    await page
      .locator('output.notice')
      .getByText(`Boost applied: your Black card, #${black}.`)
      .waitFor({ timeout: 60_000 });
    await expect.poll(boost, { timeout: 15_000 }).toBe('BLACK card, x5');
    expect(await apply.count()).toBe(0);
    expect(opened.errors).toEqual([]);
    await opened.close();
  }, 180_000);
});
