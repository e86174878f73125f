// normalizeName reads unhomoglyph's confusables table directly instead of calling the package's function, which
// compiles a regular expression of every entry when it loads (a cold-start cost, docs/bench.md "Cold start"). Stored
// keys depend on the result (docs/deploy.md "Duplicate keys"), so the lookup must give exactly what the function
// gives, for every character it is ever asked about: each non-ASCII code point and its capital form.
import unhomoglyph from 'unhomoglyph';
import { describe, expect, it } from 'vitest';
import { confusable } from '../../../src/submissions/name';

describe('the confusables lookup', () => {
  it('equals the unhomoglyph function for every non-ASCII code point and its upper-case form', () => {
    const differences: string[] = [];
    for (let cp = 0x80; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue; // lone surrogates are refused before any name is keyed
      const char = String.fromCodePoint(cp);
      for (const text of [char, char.toUpperCase()]) {
        if (confusable(text) !== unhomoglyph(text)) differences.push(`U+${cp.toString(16)} ${JSON.stringify(text)}`);
      }
    }
    expect(differences).toEqual([]);
  });

  it('maps whole strings the same way, ASCII look-alikes included', () => {
    for (const text of ['Сanon Ваse', 'ＣＡＮＯＮ', 'rn m 1 l 0 O', 'ß ẞ SS', 'Ⲓ Тool тool', '𝐀𝐁𝐂 𝟎𝟏']) {
      expect(confusable(text), text).toBe(unhomoglyph(text));
    }
  });
});
