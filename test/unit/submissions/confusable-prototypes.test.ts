import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeName } from '../../../src/submissions/name';
import { assignedCharacters, generateModule, TARGET } from '../../tools/confusables/generate';
import { referencePrototypeOf } from '../../tools/confusables/reference-prototype';
import { propertyRuns } from '../../helpers/property-runs';

// The Worker carries only the part of confusables.txt the name rule can reach (src/submissions/confusable-prototypes.ts).
// These tests hold it to the whole `unhomoglyph` package: a stored name key must never change because of the cut.

describe('the generated confusables subset', () => {
  it('is exactly what the generator makes from the installed package (regenerate after an upgrade)', () => {
    expect(readFileSync(TARGET, 'utf8')).toBe(generateModule());
  });

  it('gives every assigned code point the same name key as the whole package', () => {
    const differ: string[] = [];
    for (const char of assignedCharacters()) {
      const name = `a${char}b`;
      if (normalizeName(name) !== normalizeName(name, referencePrototypeOf))
        differ.push(char.codePointAt(0)!.toString(16));
    }
    expect(differ).toEqual([]);
  });

  it('gives mixed-script names (Greek final sigma, combining marks, fullwidth, look-alikes) the same key', () => {
    const letters = [...'aAoOlI1 σςΣΑΡабвСТтοοοⲒ०𝐚ＡＢ\u0301\u0308\u200bß\u1e9eﬁİıǅ'];
    const any = fc.string({ unit: fc.constantFrom(...letters), maxLength: 12 });
    fc.assert(
      fc.property(any, (name) => normalizeName(name) === normalizeName(name, referencePrototypeOf)),
      { numRuns: propertyRuns(3000) },
    );
  });
});
