import { describe, expect, it } from 'vitest';
import { isUnstorableText, STORED_TEXT_MAX, storableJson, storableText } from '../src/text.ts';

describe('storableText', () => {
  it('removes NUL and other control characters, keeping tabs and line breaks', () => {
    expect(storableText('a\u0000b\u0001c\td\ne\rf\u001f')).toBe('abc\td\ne\rf');
  });

  it('replaces unpaired surrogates and keeps pairs', () => {
    expect(storableText('x\ud800y\udc00z')).toBe('x\ufffdy\ufffdz');
    expect(storableText('emoji 😀')).toBe('emoji 😀');
    for (const text of ['\u0000', '\ud800', 'a\udfffb']) expect(isUnstorableText(storableText(text))).toBe(false);
  });

  it('bounds the length with an ellipsis, never splitting a surrogate pair', () => {
    expect(storableText('a'.repeat(STORED_TEXT_MAX))).toHaveLength(STORED_TEXT_MAX);
    const cut = storableText('a'.repeat(STORED_TEXT_MAX + 1));
    expect(cut).toHaveLength(STORED_TEXT_MAX);
    expect(cut.endsWith('…')).toBe(true);
    const emoji = storableText(`${'a'.repeat(8)}😀😀`, 10);
    expect(isUnstorableText(emoji)).toBe(false);
    expect(emoji.length).toBeLessThanOrEqual(10);
  });
});

describe('storableJson', () => {
  it('cleans every string of a parsed model answer, keys included', () => {
    const parsed = JSON.parse(
      '{"directive":"go\\u0000 now","actions":[{"tool":"x","args":{"k\\ud800":"\\udc00v"}}],"n":3}',
    );
    expect(storableJson(parsed)).toEqual({
      directive: 'go now',
      actions: [{ tool: 'x', args: { 'k\ufffd': '\ufffdv' } }],
      n: 3,
    });
  });
});
