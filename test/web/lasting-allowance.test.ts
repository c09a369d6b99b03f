// The lasting allowance's cap (web/src/trade/allowance.ts) and the faces drawn for agents and companies
// (web/src/identity.ts): each bound just inside and just outside, and the drawings the same for the same identity.
import { describe, expect, it } from 'vitest';
import { agentBio, identiconCells, initialsOf } from '../../web/src/identity.ts';
import { lastingCap } from '../../web/src/trade/allowance.ts';

const USDC = (whole: bigint) => whole * 1_000_000n;

describe('lastingCap', () => {
  it("a buy's cap is the next whole 1,000 USDC at or above it, at least 1,000", () => {
    expect(lastingCap('buy', USDC(10n), undefined)).toBe(USDC(1_000n));
    expect(lastingCap('buy', USDC(1_000n), undefined)).toBe(USDC(1_000n));
    expect(lastingCap('buy', USDC(1_000n) + 1n, undefined)).toBe(USDC(2_000n));
    expect(lastingCap('buy', 0n, undefined)).toBe(USDC(1_000n));
  });
  it("a sale's cap is the whole holding, never less than the sale", () => {
    expect(lastingCap('sell', 5n, 100n)).toBe(100n);
    expect(lastingCap('sell', 100n, 100n)).toBe(100n);
    expect(lastingCap('sell', 150n, 100n)).toBe(150n);
    expect(lastingCap('sell', 7n, undefined)).toBe(7n);
  });
});

describe('avatars and bios', () => {
  it('draws the same mirrored identicon for the same id, and another for another', () => {
    const a = identiconCells('agent:one');
    expect(identiconCells('agent:one')).toEqual(a);
    expect(identiconCells('agent:two')).not.toEqual(a);
    for (const row of a) expect(row).toEqual([...row].reverse());
  });
  it('takes the initials of the first two words', () => {
    expect(initialsOf('Spot Sprinters')).toBe('SS');
    expect(initialsOf('neural')).toBe('N');
    expect(initialsOf('Acme Big Corp')).toBe('AB');
    expect(initialsOf('—')).toBe('?');
  });
  it('keeps a stored bio, else draws one from the role and the directive, cut to a sentence', () => {
    const base = {
      role: 'CFO',
      persona: { description: 'Guards the treasury.' },
      company: { name: 'Acme' },
    };
    expect(agentBio({ ...base, description: 'My own words.' })).toBe('My own words.');
    expect(agentBio({ ...base, description: null })).toBe('The CFO of Acme. Guards the treasury.');
    expect(agentBio({ ...base, description: '  ', directive: 'Buy low.' })).toBe(
      "The CFO of Acme. Guards the treasury. Its company's directive: “Buy low.”",
    );
    const long = agentBio({ ...base, description: null, directive: 'x'.repeat(400) });
    expect(long.endsWith('…”')).toBe(true);
    expect(long.length).toBeLessThan(260);
  });
});
