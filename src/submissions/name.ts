/** Tool names: 2 to 100 characters after trimming, printable, well-formed Unicode. */

export const NAME_MIN = 2;
export const NAME_MAX = 100;

/** Letters, digits, symbols and punctuation: what a reader actually sees (not fillers or zero-width marks). */
const VISIBLE = /(?![\u115f\u1160\u3164\uffa0])[\p{L}\p{N}\p{S}\p{P}]/gu;

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

/** Names compare case-insensitively after trimming and collapsing inner whitespace. */
export function normalizeName(name: string): string {
  // Zero-width and other format characters are dropped, so "Acme\u200bWriter" is "AcmeWriter".
  return name.normalize('NFKC').replace(/\p{Cf}/gu, '').trim().replace(/\s+/gu, ' ').toLowerCase();
}
