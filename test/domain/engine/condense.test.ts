// condense: model text cut to a decision's bound, keeping its start, never splitting a character.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { condense } from '../../../src/domain/engine/condense.ts';
import { isUnstorableText } from '../../../src/text.ts';

describe('condense', () => {
  it('keeps text that fits as it is', () => {
    expect(condense('a'.repeat(10), 10)).toBe('a'.repeat(10));
  });

  it('cuts at the last word boundary near the end and marks the cut', () => {
    const text = `${'word '.repeat(30)}end`; // 153 characters
    const out = condense(text, 100);
    expect(out.length).toBeLessThanOrEqual(100);
    expect(out.endsWith('word…')).toBe(true);
  });

  it('never splits a surrogate pair', () => {
    expect(condense('😀'.repeat(10), 5)).toBe('😀😀…');
  });

  it('always fits, keeps the start and stays storable (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), fc.integer({ min: 2, max: 200 }), (text, max) => {
        const out = condense(text, max);
        expect(out.length).toBeLessThanOrEqual(max);
        expect([...out].length).toBeLessThanOrEqual(max);
        expect(isUnstorableText(out)).toBe(false);
        if (text.length <= max) expect(out).toBe(text);
        else expect(text.startsWith(out.slice(0, -1).trimEnd())).toBe(true);
      }),
    );
  });
});
