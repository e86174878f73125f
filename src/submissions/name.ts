/** Tool names: 2 to 100 characters after trimming, printable, well-formed Unicode. */
// The confusables table of the `unhomoglyph` package, read directly: its own function compiles a regular expression
// of all 6,311 entries when the module loads (~4 ms of every Worker cold start, docs/bench.md "Cold start"), and
// every entry is one code point, so a lookup gives the same prototype (test/unit/submissions/name-confusables.test.ts
// checks every code point against the package's function).
import confusableData from 'unhomoglyph/data.json';

const CONFUSABLES = confusableData as Record<string, string>;

export const NAME_MIN = 2;
export const NAME_MAX = 100;

/** Letters, digits, symbols and punctuation: what a reader actually sees (not fillers or zero-width marks). */
const VISIBLE = /(?![\u115f\u1160\u3164\uffa0])[\p{L}\p{N}\p{S}\p{P}]/gu;
/** Zero-width and other invisible characters: UTS #39 removes Default_Ignorable_Code_Point before mapping. */
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;
const NON_ASCII = /[^\u0000-\u007f]/gu;
const ASCII = /^[\u0000-\u007f]*$/;

export type NameCheck = { ok: true; name: string } | { ok: false; message: string };

export function checkName(input: string): NameCheck {
  const name = input.trim();
  if (!name.isWellFormed()) return { ok: false, message: 'name must be valid Unicode text' };
  if (/\p{Cc}/u.test(name)) return { ok: false, message: 'name must not contain control characters' };
  if (/[\u202a-\u202e\u2066-\u2069]/u.test(name)) return { ok: false, message: 'name must not contain bidirectional overrides' };
  const length = [...name].length;
  if (length < NAME_MIN || length > NAME_MAX) {
    return { ok: false, message: `name must be ${NAME_MIN} to ${NAME_MAX} characters` };
  }
  if ((name.match(VISIBLE) ?? []).length < NAME_MIN) return { ok: false, message: 'name must contain visible characters' };
  return { ok: true, name };
}

/**
 * The key names compare by (../shared/spec/DECISIONS.md "Duplicates"): NFKC, invisible characters removed,
 * case folded, whitespace trimmed and collapsed, then the UTS #39 skeleton, so `Сanon Base` with a Cyrillic `С`,
 * `ＣＡＮＯＮ base` and `canon base` are one name. Only `normalized_name` holds it; the stored name stays as
 * submitted. Changing this function (or the `unhomoglyph` data) changes stored keys: see docs/deploy.md
 * "Duplicate keys".
 */
export function normalizeName(name: string): string {
  // Folding comes first, so every case variant of a name gets the same key whatever the mapping does.
  let key = collapse(foldCase(name.normalize('NFKC').replace(INVISIBLE, '')));
  // A prototype can be upper-case (`०` maps to `O`) or itself reach another mapped character once folded, so
  // repeat until nothing changes (two rounds settle every entry of the data; four is a bound, not a count).
  for (let round = 0; round < 4; round++) {
    const next = collapse(foldCase(skeleton(key)));
    if (next === key) break;
    key = next;
  }
  return key;
}

/** UTS #39 skeleton: NFD, map each confusable to its prototype, NFD again. */
function skeleton(text: string): string {
  return text.normalize('NFD').replace(NON_ASCII, prototypeOf).normalize('NFD');
}

/**
 * The prototype of one (case-folded, non-ASCII) character in confusables.txt, via the `unhomoglyph` package.
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
  const own = confusable(char);
  if (ASCII.test(own)) return own;
  const capital = char.toUpperCase();
  if (capital === char) return own;
  const viaCapital = confusable(capital);
  if (!ASCII.test(viaCapital)) return own;
  return viaCapital === 'l' ? 'I' : viaCapital;
}

/**
 * Each character's prototype in confusables.txt (itself when it has none): what the package's `unhomoglyph(text)`
 * returns. A capital may be more than one character (`ß` → `SS`).
 */
export function confusable(text: string): string {
  let out = '';
  for (const c of text) out += Object.hasOwn(CONFUSABLES, c) ? CONFUSABLES[c]! : c;
  return out;
}

/** Full case folding as far as JavaScript offers it: `ß`, `ẞ` and `SS` are `ss`, final `ς` is `σ`. */
function foldCase(text: string): string {
  return text.toUpperCase().toLowerCase();
}

function collapse(text: string): string {
  return text.trim().replace(/\s+/gu, ' ');
}
