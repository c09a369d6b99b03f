// TokenLauncher's gas at the default curve fee (1%), the figures of docs/contracts.md's table: launch, curve trades,
// graduation and pool trades.
import { describe, expect, it } from 'vitest';
import { usdc } from './fixture.ts';
import { ceilDiv, G, NAME, SYMBOL, useTokenChain } from './token-fixture.ts';

const f = useTokenChain();

describe('gas', () => {
  it('records the gas of launch, curve trades, graduation and pool trades', async () => {
    const launchReceipt = await f.write(0, f.launcherCall('launch', [f.keyFor('token0'), NAME, SYMBOL, f.addr(0), G]));
    const token = f.predictToken(f.keyFor('token0'));
    await f.ready(1, token);
    await f.ready(2, token);
    const firstBuy = await f.buy(1, token, usdc(100));
    const laterBuy = await f.buy(2, token, usdc(100));
    const curveSell = await f.sell(1, token, (await f.tokensOf(token, f.addr(1))) / 2n);
    const c = await f.curveOf(token);
    // exactly what the curve still needs, and its 1% fee on top (rounded up)
    const needed = c.graduationVirtualUsdc - c.virtualUsdc;
    const graduating = await f.buy(2, token, needed + ceilDiv(needed * 100n, 10_000n));
    expect(await f.graduated(token)).toBe(true);
    const poolBuy = await f.buy(1, token, usdc(100)); // the hook's first fee claims in this token
    const laterPoolBuy = await f.buy(1, token, usdc(100));
    const poolSell = await f.sell(1, token, (await f.tokensOf(token, f.addr(1))) / 2n);
    const laterPoolSell = await f.sell(1, token, (await f.tokensOf(token, f.addr(1))) / 2n);

    // an oversized graduating buy on a second token (the curve part, graduation and a pool swap)
    const other = await f.launchSide('token1');
    await f.ready(3, other);
    const oc = await f.curveOf(other);
    const oversized = await f.buy(3, other, oc.graduationVirtualUsdc - oc.virtualUsdc + usdc(1_000));

    const gas = {
      launch: launchReceipt.gasUsed,
      'buy on the curve (first buy of the account)': firstBuy.gasUsed,
      'buy on the curve (later)': laterBuy.gasUsed,
      'sell on the curve': curveSell.gasUsed,
      'buy that graduates (exact amount)': graduating.gasUsed,
      'buy that graduates and swaps the rest': oversized.gasUsed,
      'buy in the pool (first fee claims of the hook in the token)': poolBuy.gasUsed,
      'buy in the pool (later)': laterPoolBuy.gasUsed,
      'sell in the pool (first fee claims of the hook in USDC)': poolSell.gasUsed,
      'sell in the pool (later)': laterPoolSell.gasUsed,
    };
    console.log('TokenLauncher gas used', Object.fromEntries(Object.entries(gas).map(([k, v]) => [k, Number(v)])));
    // The token's code (ERC20Permit: its EIP-712 domain) is most of a launch; the launcher writes three slots
    // (the curve, the company key, the threshold: five before the token state was packed into one slot).
    expect(launchReceipt.gasUsed).toBeLessThan(1_030_000n);
    // A curve trade reads and writes one slot of the token's state (three before: 116,034, 98,934 and
    // 80,774 gas).
    expect(firstBuy.gasUsed).toBeLessThan(112_000n);
    expect(laterBuy.gasUsed).toBeLessThan(95_000n);
    expect(curveSell.gasUsed).toBeLessThan(77_000n);
    // No pool id stored, no reserve cleared (391,538 before).
    expect(graduating.gasUsed).toBeLessThan(375_000n);
    expect(oversized.gasUsed).toBeLessThan(450_000n);
    expect(laterPoolBuy.gasUsed).toBeLessThan(poolBuy.gasUsed);
    expect(laterPoolSell.gasUsed).toBeLessThan(poolSell.gasUsed);
    // The hook reads no slot0 for its PoolTrade log (the PoolManager's Swap log has the price): 135,245
    // and 140,491 gas for the later pool buy and sale before.
    expect(poolBuy.gasUsed).toBeLessThan(151_000n);
    expect(laterPoolBuy.gasUsed).toBeLessThan(134_000n);
    expect(poolSell.gasUsed).toBeLessThan(151_000n);
    expect(laterPoolSell.gasUsed).toBeLessThan(139_000n);
  });
});
