import { describe, expect, it } from 'vitest';
import {
  hasBidiOverrides,
  hasControlCharacters,
  hasInvisibleCharacters,
  isPrintable,
  visibleCharacterCount,
} from '../../src/printable-text';

// The one printable-text rule (src/printable-text.ts) that tool, category, key and OAuth client names share.
describe('printable text', () => {
  it('accepts ordinary text in any script, emoji included', () => {
    for (const text of ['Acme Writer', 'Ærøskøbing', '東京', 'café ☕', 'x'.repeat(500)])
      expect(isPrintable(text), text).toBe(true);
  });

  it('refuses every control character: C0, DEL, C1, and tab and line feed unless line breaks are allowed', () => {
    for (const ch of ['\u0000', '\u0007', '\t', '\n', '\r', '\u001f', '\u007f', '\u0085', '\u009f']) {
      expect(isPrintable(`a${ch}b`), JSON.stringify(ch)).toBe(false);
    }
    expect(isPrintable('line one\nline two\tcolumn', { lineBreaks: true })).toBe(true);
    for (const ch of ['\u0000', '\r', '\u000b', '\u007f', '\u0085']) {
      expect(hasControlCharacters(`a${ch}b`, { lineBreaks: true }), JSON.stringify(ch)).toBe(true);
    }
  });

  it('refuses lone surrogates (text that is not well-formed)', () => {
    expect(isPrintable('a\ud800b')).toBe(false);
    expect(isPrintable('a\udc00', { lineBreaks: true })).toBe(false);
  });

  it('finds bidi overrides and, as invisible characters, format characters too', () => {
    for (const ch of ['\u202a', '\u202e', '\u2066', '\u2069']) expect(hasBidiOverrides(`x${ch}y`)).toBe(true);
    expect(hasBidiOverrides('x\u200dy')).toBe(false);
    for (const ch of ['\u200d', '\u00ad', '\u202e', '\u0001']) expect(hasInvisibleCharacters(`x${ch}y`)).toBe(true);
    expect(hasInvisibleCharacters('plain name')).toBe(false);
  });

  it('counts what a reader sees: letters, digits, symbols and punctuation, never fillers, marks or spaces', () => {
    expect(visibleCharacterCount('Acme Writer')).toBe(10);
    expect(visibleCharacterCount('東京 ☕ 1.')).toBe(5);
    for (const blank of ['\u2800\u3164\u115f\u1160\uffa0\u{1d159}', '   ', '\u0301\u0301', '\u200b\u2060', '']) {
      expect(visibleCharacterCount(blank), JSON.stringify(blank)).toBe(0);
    }
    expect(visibleCharacterCount('A\u2800')).toBe(1);
  });
});
