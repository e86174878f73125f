import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkName, normalizeName } from '../../../src/submissions/name';

describe('checkName', () => {
  it.each([
    ['ab', 'ab'],
    ['  Acme Writer  ', 'Acme Writer'],
    ['x'.repeat(100), 'x'.repeat(100)],
    ['😀😀', '😀😀'],
    ['Café 東京', 'Café 東京'],
  ])('accepts %j', (input, expected) => {
    expect(checkName(input)).toEqual({ ok: true, name: expected });
  });

  it.each([
    ['a', '2 to 100'],
    ['   a   ', '2 to 100'],
    ['', '2 to 100'],
    ['x'.repeat(101), '2 to 100'],
    ['bad\u0000name', 'control'],
    ['bad\nname', 'control'],
    ['bad\u007fname', 'control'],
    ['bad\ud800name', 'Unicode'],
    ['\udc00ab', 'Unicode'],
  ])('refuses %j', (input, fragment) => {
    const check = checkName(input);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.message).toContain(fragment);
  });

  // The blank characters people use to fake an empty name: none of them is a visible character.
  const fillers = {
    'U+2800 braille blank': '\u2800',
    'U+3164 Hangul filler': '\u3164',
    'U+115F Hangul choseong filler': '\u115f',
    'U+1160 Hangul jungseong filler': '\u1160',
    'U+FFA0 half-width Hangul filler': '\uffa0',
    'U+1D159 null notehead': '\u{1d159}',
    'U+200B zero-width space': '\u200b',
    'U+200C zero-width non-joiner': '\u200c',
    'U+200D zero-width joiner': '\u200d',
    'U+2060 word joiner': '\u2060',
  };

  it.each(Object.entries(fillers))(
    'a name of %s alone, or with one letter, has no visible characters',
    (_label, filler) => {
      for (const name of [filler.repeat(3), `${filler} ${filler}`, `A${filler}${filler}`]) {
        expect(checkName(name), JSON.stringify(name)).toEqual({
          ok: false,
          message: 'name must contain visible characters',
        });
      }
      expect(checkName(`Ab${filler}`).ok).toBe(true);
    },
  );

  it('counts characters, not UTF-16 units', () => {
    expect(checkName('😀'.repeat(100)).ok).toBe(true);
    expect(checkName('😀'.repeat(101)).ok).toBe(false);
  });
});

describe('normalizeName', () => {
  const same = (a: string, b: string) =>
    expect(normalizeName(a), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`).toBe(normalizeName(b));
  const apart = (a: string, b: string) =>
    expect(normalizeName(a), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`).not.toBe(normalizeName(b));

  it('compares case-insensitively after trimming and collapsing whitespace', () => {
    expect(normalizeName('  Acme   Writer ')).toBe('acme writer');
    same('ACME\tWRITER', 'acme writer');
    same('Canon Base', 'canon base');
  });

  it.each([
    ['Cyrillic С in Canon', '\u0421anon Base', 'Canon Base'],
    ['Cyrillic lower-case о twice', 'G\u043e\u043egle', 'Google'],
    ['Cyrillic а, е, р, с, х', '\u0430\u0435\u0440\u0441\u0445', 'aepcx'],
    ['Cyrillic capital Т (its lower case т looks like ᴛ)', '\u0422ool', 'Tool'],
    ['Cyrillic lower-case т', '\u0442ool', 'tool'],
    ['Cyrillic М, А, Х', '\u041c\u0410\u0425', 'MAX'],
    ['Greek Α', '\u0391cme', 'Acme'],
    ['Greek Τ, Ο, Ο', '\u03a4\u039f\u039fL', 'Tool'],
    ['Greek ο inside a word', 'T\u03bf\u03bfl', 'Tool'],
    ['Greek capital Ι (confusables.txt files it under l)', '\u0399BM', 'IBM'],
    ['Cyrillic і', '\u0456bm', 'ibm'],
    ['full-width letters', 'ＣＡＮＯＮ Ｂａｓｅ', 'Canon Base'],
    ['full-width space', 'Canon\u3000Base', 'Canon Base'],
    ['mathematical bold', '\u{1d402}\u{1d41a}\u{1d427}\u{1d428}\u{1d427} Base', 'Canon Base'],
    ['ligature ﬁ', '\ufb01le Tool', 'File Tool'],
    ['ligature ﬀ', 'Sta\ufb00 Picker', 'Staff Picker'],
    ['zero-width space', 'Acme\u200bWriter', 'AcmeWriter'],
    ['zero-width joiner and word joiner', 'Ac\u200dme\u2060 Writer', 'Acme Writer'],
    ['soft hyphen', 'Ac\u00adme', 'Acme'],
    ['variation selector', 'Acme\ufe0f Writer', 'Acme Writer'],
    ['sharp s', 'Straße', 'STRASSE'],
    ['composed and decomposed é', 'Caf\u00e9', 'Cafe\u0301'],
    ['Roman numeral Ⅻ', 'Tool \u216b', 'Tool XII'],
    ['braille blank at the end', 'Acme Writer\u2800', 'Acme Writer'],
    ['braille blank inside a word is a space', 'Ac\u2800me', 'Ac me'],
    ['braille blanks around a space', 'Acme\u2800 \u2800Writer', 'Acme Writer'],
    ['Hangul filler as the space', 'Acme\u3164Writer', 'Acme Writer'],
    ['Hangul choseong and jungseong fillers', '\u115fAcme\u1160', 'Acme'],
    ['half-width Hangul filler', 'Acme\uffa0 Writer', 'Acme Writer'],
    ['musical null notehead', 'Acme\u{1d159}', 'Acme'],
  ])('%s: %j equals %j', (_, a, b) => {
    same(a, b);
  });

  // Issue 27: a filler draws a blank, so it stands for a space, not for nothing.
  it.each([
    ['U+2800 braille blank', '\u2800'],
    ['U+3164 Hangul filler', '\u3164'],
    ['U+115F Hangul choseong filler', '\u115f'],
    ['U+1160 Hangul jungseong filler', '\u1160'],
    ['U+FFA0 half-width Hangul filler', '\uffa0'],
    ['U+1D159 musical null notehead', '\u{1d159}'],
  ])('%s used as the space is the same name as with a space', (_, filler) => {
    same(`Acme${filler}Writer`, 'Acme Writer');
    same(`Acme${filler}${filler}Writer`, 'Acme Writer');
    apart(`Acme${filler}Writer`, 'AcmeWriter');
    same(`${filler}Acme Writer${filler}`, 'Acme Writer');
  });

  it.each([
    ['different words', 'Canon Base', 'Canon Vase'],
    ['one letter apart', 'Acme', 'Acne'],
    ['an accent is a different letter', 'Café', 'Cafe'],
    ['rn is not m within ASCII', 'Modem Tool', 'Modern Tool'],
    ['digit one is not l', 'Tool 1', 'Tool l'],
    ['digit zero is not O', 'T00l', 'Tool'],
    ['capital I is i, not l', 'PayPaI', 'paypal'],
    ['word order', 'Base Canon', 'Canon Base'],
    ['inner space', 'Canon Base', 'CanonBase'],
    ['another script entirely', '東京 Tool', '大阪 Tool'],
    ['Cyrillic words', 'Привет', 'Пока'],
  ])('%s: %j and %j stay apart', (_, a, b) => {
    apart(a, b);
  });

  it('is the same for every case variant of a name (ASCII, Greek, Cyrillic)', () => {
    const letters = [...'abcdefghijklmnopqrstuvwxyz0123 ', ...'αβγδεηικμνοπρστυχω', ...'абвгдеикмнопрстухші'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...letters), { minLength: 2, maxLength: 30 }), (chars) => {
        const name = chars.join('');
        const key = normalizeName(name);
        return normalizeName(name.toUpperCase()) === key && normalizeName(name.toLowerCase()) === key;
      }),
    );
  });

  it('is stable: a key normalises to itself for letters and look-alikes', () => {
    for (const name of ['\u0421anon Base', 'ΤΟΟL', 'Straße', 'Café', 'ＣＡＮＯＮ', '半角カナ']) {
      expect(normalizeName(normalizeName(name))).toBe(normalizeName(name));
    }
  });

  it('keeps a name without look-alikes readable (the key is lower-case NFD of the name)', () => {
    expect(normalizeName('Acme Writer 2')).toBe('acme writer 2');
    expect(normalizeName('東京 Tool')).toBe('東京 tool'.normalize('NFD'));
  });
});
