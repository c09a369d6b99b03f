// The built-in model's trading strategies (src/domain/engine/models/builtin/trading.ts): a human's prompt read into
// trades, momentum with its stop loss and take profit for SPOT_TRADING, staking and harvesting for DEFI_YIELD, the
// CRO's veto of a falling token, and the same answer for the same context.
import { describe, expect, it } from 'vitest';
import { answer, roleAnswer } from '../../../src/domain/engine/models/builtin/provider.ts';
import { instructed } from '../../../src/domain/engine/models/builtin/trading.ts';
import type { AgentWalletState, RoundContext } from '../../../src/domain/engine/models/types.ts';
import { context, ENGINE_TOOLS } from './fixtures.ts';

const wallet = (over: Partial<AgentWalletState> = {}): AgentWalletState => ({
  role: 'CFO',
  address: '0x1000000000000000000000000000000000000001',
  usdc: '400',
  primary: '0',
  staked: '0',
  pendingEmission: '0',
  positions: [],
  ...over,
});
const market = (symbol: string, change24hPct: number, buyable = true) => ({
  symbol,
  status: 'BONDING',
  priceUsdc: '0.01',
  change24hPct,
  broadChange24hPct: change24hPct,
  volume24hUsdc: '500',
  trades24h: 25,
  traders24h: buyable ? 12 : 1,
  ageHours: buyable ? 48 : 2,
  buyable,
});
const trading = (over: Partial<RoundContext>, company: Partial<RoundContext['company']> = {}) =>
  ({ ...context({ company: { category: 'SPOT_TRADING', ...company } }), ...over }) as RoundContext;

describe('the built-in trading strategies', () => {
  it("reads a human's prompt into trades, in the order written, with amounts the tools' patterns take", () => {
    expect(
      instructed('Buy 50 USDC of sprnt every round, then sell all HRVST; stake 10.5 and unstake all. Harvest.'),
    ).toEqual([
      expect.objectContaining({ tool: 'buy_token', args: { token: 'SPRNT', usdc: '50' } }),
      expect.objectContaining({ tool: 'sell_token', args: { token: 'HRVST', amount: 'all' } }),
      expect.objectContaining({ tool: 'stake_primary', args: { amount: '10.5' } }),
      expect.objectContaining({ tool: 'unstake_primary', args: { amount: 'all' } }),
      expect.objectContaining({ tool: 'harvest_emission', args: {} }),
    ]);
    expect(instructed('buy 1.12345678 usdc of AB')[0]!.args).toEqual({ token: 'AB', usdc: '1.123456' });
    expect(instructed('Publish an update and keep the treasury untouched.')).toEqual([]);
  });

  it('follows a HUMAN_DIRECTED prompt as the CFO, whatever the category', () => {
    const ctx = trading(
      { wallets: [wallet()] },
      { autonomyLevel: 'HUMAN_DIRECTED', ceoPrompt: 'Buy 50 USDC of SPRNT every round.', category: 'RWA' },
    );
    expect(roleAnswer(ctx, 'CFO', ENGINE_TOOLS).proposals[0]).toMatchObject({
      tool: 'buy_token',
      args: { token: 'SPRNT', usdc: '50' },
    });
    expect(roleAnswer(ctx, 'CMO', ENGINE_TOOLS).proposals.map((p) => p.tool)).not.toContain('buy_token');
  });

  it('buys the best riser the buy rules allow (never its own token) with half of what one trade may spend', () => {
    const ctx = trading({
      wallets: [wallet({ usdc: '400' })],
      market: [market('ACME', 50), market('ZETA', 8), market('UP', 12), market('PUMP', 90, false), market('DOWN', -3)],
    });
    // ACME is the company's own token, PUMP fails the buy rules (2 h old, one outside trader): UP. 400 * 25% / 2 = 50.
    expect(roleAnswer(ctx, 'CFO', ENGINE_TOOLS).proposals[0]).toMatchObject({
      tool: 'buy_token',
      args: { token: 'UP', usdc: '50' },
    });
  });

  it('stops a loss and takes half a profit', () => {
    const ctx = trading({
      wallets: [
        wallet({
          usdc: '0',
          positions: [
            { symbol: 'LOSS', tokens: '100', costUsdc: '10', valueUsdc: '8.9' },
            { symbol: 'GAIN', tokens: '7', costUsdc: '10', valueUsdc: '11.5' },
            { symbol: 'FLAT', tokens: '5', costUsdc: '10', valueUsdc: '10.5' },
          ],
        }),
      ],
    });
    expect(roleAnswer(ctx, 'CFO', ENGINE_TOOLS).proposals.map((p) => [p.tool, p.args])).toEqual([
      ['sell_token', { token: 'LOSS', amount: 'all' }],
      ['sell_token', { token: 'GAIN', amount: '3.5' }],
    ]);
  });

  it('stakes a share of the primary token and harvests for DEFI_YIELD', () => {
    const ctx = trading({ wallets: [wallet({ primary: '200', pendingEmission: '0.5' })] }, { category: 'DEFI_YIELD' });
    expect(roleAnswer(ctx, 'CFO', ENGINE_TOOLS).proposals.map((p) => [p.tool, p.args])).toEqual([
      ['stake_primary', { amount: '50' }],
      ['harvest_emission', {}],
    ]);
  });

  it('has the CRO veto buys of a token that fell 20% or more', () => {
    const ctx = trading({ market: [market('CRASH', -20), market('DIP', -19.99)] });
    expect(roleAnswer(ctx, 'CRO', ENGINE_TOOLS).proposals[0]).toMatchObject({
      tool: 'veto_action',
      args: { tool: 'buy_token', token: 'CRASH', reason: 'CRASH fell 20% in 24 h' },
    });
    expect(roleAnswer(ctx, 'CRO', ENGINE_TOOLS).proposals.filter((p) => p.tool === 'veto_action')).toHaveLength(1);
  });

  it('trades nothing without a wallet, for other categories, or when the tools are disabled', () => {
    const rising = { market: [market('UP', 12)] };
    expect(roleAnswer(trading(rising), 'CFO', ENGINE_TOOLS).proposals.map((p) => p.tool)).not.toContain('buy_token');
    const other = trading({ ...rising, wallets: [wallet()] }, { category: 'RWA' });
    expect(roleAnswer(other, 'CFO', ENGINE_TOOLS).proposals.map((p) => p.tool)).not.toContain('buy_token');
    const withoutTrades = ENGINE_TOOLS.filter((s) => s.name !== 'buy_token');
    const ctx = trading({ ...rising, wallets: [wallet()] });
    expect(roleAnswer(ctx, 'CFO', withoutTrades).proposals.map((p) => p.tool)).not.toContain('buy_token');
  });

  it('carries the trades through synthesis and extraction, the same for the same context', () => {
    const ctx = trading({ wallets: [wallet()], market: [market('UP', 12)] });
    const proposals = [{ role: 'CFO' as const, ...roleAnswer(ctx, 'CFO', ENGINE_TOOLS).proposals[0]! }];
    const synthesis = answer({ phase: 'synthesis', context: ctx, brief: '', proposals });
    const tools = ENGINE_TOOLS.filter((s) => ['buy_token', 'publish_update'].includes(s.name));
    const decision = JSON.parse(answer({ phase: 'extraction', context: ctx, synthesis, tools }));
    expect(decision.actions).toEqual([
      expect.objectContaining({ role: 'CFO', tool: 'buy_token', args: { token: 'UP', usdc: '50' } }),
    ]);
    expect(answer({ phase: 'synthesis', context: ctx, brief: '', proposals })).toBe(synthesis);
  });
});
