/** Tool names: 2 to 100 characters after trimming, printable, well-formed Unicode. */

export const NAME_MIN = 2;
export const NAME_MAX = 100;

export type NameCheck = { ok: true; name: string } | { ok: false; message: string };

export function checkName(input: string): NameCheck {
  const name = input.trim();
  if (!name.isWellFormed()) return { ok: false, message: 'name must be valid Unicode text' };
  if (/\p{Cc}/u.test(name)) return { ok: false, message: 'name must not contain control characters' };
  const length = [...name].length;
  if (length < NAME_MIN || length > NAME_MAX) {
    return { ok: false, message: `name must be ${NAME_MIN} to ${NAME_MAX} characters` };
  }
  return { ok: true, name };
}

/** Names compare case-insensitively after trimming and collapsing inner whitespace. */
export function normalizeName(name: string): string {
  return name.normalize('NFKC').trim().replace(/\s+/gu, ' ').toLowerCase();
}
