/** Tool names: 2 to 100 characters after trimming, printable, well-formed Unicode. */
import { confusablePrototypes } from './confusable-prototypes';
import { FILLER_CHARACTERS, hasBidiOverrides, hasControlCharacters, visibleCharacterCount } from '../printable-text';

export const NAME_MIN = 2;
export const NAME_MAX = 100;

/** The blank fillers of src/printable-text.ts: each draws a blank, so a name reads it as a space. */
const FILLERS = new RegExp(`[${FILLER_CHARACTERS}]`, 'gu');
/** Zero-width and other invisible characters: UTS #39 removes Default_Ignorable_Code_Point before mapping. */
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;
const NON_ASCII = /[^\u0000-\u007f]/gu;

export type NameCheck = { ok: true; name: string } | { ok: false; message: string };

export function checkName(input: string): NameCheck {
  const name = input.trim();
  if (!name.isWellFormed()) return { ok: false, message: 'name must be valid Unicode text' };
  if (hasControlCharacters(name)) return { ok: false, message: 'name must not contain control characters' };
  if (hasBidiOverrides(name)) return { ok: false, message: 'name must not contain bidirectional overrides' };
  const length = [...name].length;
  if (length < NAME_MIN || length > NAME_MAX) {
    return { ok: false, message: `name must be ${NAME_MIN} to ${NAME_MAX} characters` };
  }
  if (visibleCharacterCount(name) < NAME_MIN) return { ok: false, message: 'name must contain visible characters' };
  return { ok: true, name };
}

/**
 * The key names compare by (docs/decisions.md "Duplicates"): NFKC, blank fillers read as spaces, invisible
 * characters removed, case folded, whitespace trimmed and collapsed, then the UTS #39 skeleton, so `Сanon Base` with a
 * Cyrillic `С`, `ＣＡＮＯＮ base`, `Canon⠀Base` with a braille blank and `canon base` are one name. Only
 * `normalized_name` holds it; the stored name stays as submitted. Changing this function (or the confusables data)
 * changes stored keys: see docs/deploy.md "Duplicate keys". `prototype` is for the test that holds the generated
 * table equal to the whole package.
 */
export function normalizeName(name: string, prototype: (char: string) => string = prototypeOf): string {
  // Folding comes first, so every case variant of a name gets the same key whatever the mapping does.
  // A filler draws a blank, so it is a space (`Acme⠀Writer` is `Acme Writer`; at either end it trims away). It is
  // replaced before invisible characters go: the Hangul fillers are Default_Ignorable and would vanish instead.
  let key = collapse(foldCase(name.normalize('NFKC').replace(FILLERS, ' ').replace(INVISIBLE, '')));
  // A prototype can be upper-case (`०` maps to `O`) or itself reach another mapped character once folded, so
  // repeat until nothing changes (two rounds settle every entry of the data; four is a bound, not a count).
  for (let round = 0; round < 4; round++) {
    const next = collapse(foldCase(skeleton(key, prototype)));
    if (next === key) break;
    key = next;
  }
  return key;
}

/** UTS #39 skeleton: NFD, map each confusable to its prototype, NFD again. */
function skeleton(text: string, prototype: (char: string) => string): string {
  return text.normalize('NFD').replace(NON_ASCII, prototype).normalize('NFD');
}

/**
 * The prototype of one (case-folded, non-ASCII) character in confusables.txt. The table is the part of the
 * `unhomoglyph` package's data this rule can reach, generated with the rule below already applied
 * (test/tools/confusables/generate.ts; a test holds it equal to the package):
 *
 * ASCII characters are never mapped: within ASCII, confusables.txt equates `m` with `rn`, `1` and `I` with `l`,
 * `0` with `O`, and those are different names a person types on purpose (`Modem` is not `Modern`); the
 * look-alikes worth catching come from other scripts and compatibility forms.
 *
 * The standard's skeleton is case-sensitive, and some letters look Latin only in one case: Cyrillic `т` maps
 * to small-capital `ᴛ`, its capital `Т` to `T`. So when the folded letter's own prototype is not ASCII but its
 * capital's is, the capital's wins (`Тool` and `тool` are both `tool`). confusables.txt files `I` under `l`;
 * as `I` has to equal `i` here, a capital whose prototype is `l` (Coptic `Ⲓ`) is read as `I`.
 */
function prototypeOf(char: string): string {
  return prototypes().get(char) ?? char;
}

let table: Map<string, string> | undefined;
/** Built on first use, not at start-up: most requests compare no name. */
function prototypes(): Map<string, string> {
  table ??= confusablePrototypes();
  return table;
}

/** Full case folding as far as JavaScript offers it: `ß`, `ẞ` and `SS` are `ss`, final `ς` is `σ`. */
function foldCase(text: string): string {
  return text.toUpperCase().toLowerCase();
}

function collapse(text: string): string {
  return text.trim().replace(/\s+/gu, ' ');
}
