// The image a tool without one gets: its initial on a colour chosen from its name. A data: URI (the pages' CSP
// allows `img-src 'self' data:`), so it costs no request and can never be a broken image.

/** Dark enough for white text at any size (contrast ≥ 4.5:1 against #fff). */
const PALETTE = [
  '#b91c1c',
  '#c2410c',
  '#a16207',
  '#15803d',
  '#0f766e',
  '#0369a1',
  '#1d4ed8',
  '#4338ca',
  '#6d28d9',
  '#a21caf',
  '#be185d',
  '#374151',
];

/** The first letter or digit of the name, upper-cased; "?" when it has none. */
export function placeholderInitial(name: string): string {
  const first = Array.from(name.normalize('NFKC')).find((char) => /[\p{L}\p{N}]/u.test(char));
  return first ? (Array.from(first.toLocaleUpperCase('en'))[0] ?? first) : '?';
}

/** The same name always gets the same colour (FNV-1a over the trimmed, lower-cased name). */
export function placeholderColour(name: string): string {
  let hash = 0x811c9dc5;
  for (const char of name.trim().toLowerCase()) {
    hash ^= char.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return PALETTE[hash % PALETTE.length]!;
}

/**
 * An SVG data: URI showing the initial, `width`×`height` (square for icons, 1200×630 for a missing og:image).
 * The initial is a letter or digit, XML-escaped anyway; the whole document is percent-encoded.
 */
export function placeholderImage(
  name: string,
  size: { width: number; height: number } = { width: 64, height: 64 },
): string {
  const { width, height } = size;
  const fontSize = Math.round(Math.min(width, height) * 0.55);
  const initial = placeholderInitial(name).replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<rect width="100%" height="100%" fill="${placeholderColour(name)}"/>` +
    `<text x="50%" y="50%" dy=".35em" text-anchor="middle" fill="#fff" font-family="system-ui,sans-serif" font-weight="600" font-size="${fontSize}">${initial}</text></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}
