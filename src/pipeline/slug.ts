// Readable, unique public slugs: /tools/{slug}.

const MAX_SLUG_LENGTH = 60;

/** "Ünïcode Tool — v2!" → "unicode-tool-v2"; a name with no letters or digits becomes "tool". */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/-+$/, '');
  return slug || 'tool';
}

/** The first free slug for `base` given the slugs already taken (base, base-2, base-3, ...). */
export function nextFreeSlug(base: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) if (!used.has(`${base}-${n}`)) return `${base}-${n}`;
}

/** A slug a public URL may carry (the page looks up nothing else). */
export const isSlug = (value: string) => /^[a-z0-9]+(-[a-z0-9]+)*$/.test(value) && value.length <= MAX_SLUG_LENGTH + 12;
