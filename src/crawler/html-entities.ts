// Character references, enough for titles, descriptions and URLs (the full HTML table is 2,000+ names).

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  copy: '©',
  reg: '®',
  trade: '™',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  lsquo: '‘',
  rsquo: '’',
  sbquo: '‚',
  ldquo: '“',
  rdquo: '”',
  bdquo: '„',
  laquo: '«',
  raquo: '»',
  middot: '·',
  bull: '•',
  deg: '°',
  euro: '€',
  pound: '£',
  yen: '¥',
  cent: '¢',
  sect: '§',
  para: '¶',
  times: '×',
  divide: '÷',
  plusmn: '±',
  frac12: '½',
  shy: '\u00ad',
  zwj: '\u200d',
  zwnj: '\u200c',
  thinsp: '\u2009',
  ensp: '\u2002',
  emsp: '\u2003',
  larr: '←',
  rarr: '→',
  uarr: '↑',
  darr: '↓',
  hearts: '♥',
  star: '☆',
  check: '✓',
  iexcl: '¡',
  iquest: '¿',
  szlig: 'ß',
  agrave: 'à',
  aacute: 'á',
  acirc: 'â',
  atilde: 'ã',
  auml: 'ä',
  aring: 'å',
  aelig: 'æ',
  ccedil: 'ç',
  egrave: 'è',
  eacute: 'é',
  ecirc: 'ê',
  euml: 'ë',
  igrave: 'ì',
  iacute: 'í',
  icirc: 'î',
  iuml: 'ï',
  ntilde: 'ñ',
  ograve: 'ò',
  oacute: 'ó',
  ocirc: 'ô',
  otilde: 'õ',
  ouml: 'ö',
  oslash: 'ø',
  ugrave: 'ù',
  uacute: 'ú',
  ucirc: 'û',
  uuml: 'ü',
  yacute: 'ý',
  yuml: 'ÿ',
  Agrave: 'À',
  Aacute: 'Á',
  Acirc: 'Â',
  Atilde: 'Ã',
  Auml: 'Ä',
  Aring: 'Å',
  AElig: 'Æ',
  Ccedil: 'Ç',
  Egrave: 'È',
  Eacute: 'É',
  Ecirc: 'Ê',
  Euml: 'Ë',
  Ntilde: 'Ñ',
  Oacute: 'Ó',
  Ouml: 'Ö',
  Oslash: 'Ø',
  Uacute: 'Ú',
  Uuml: 'Ü',
};
// Names that browsers also honour without the trailing semicolon (the "legacy" references).
const LEGACY = new Set(['amp', 'lt', 'gt', 'quot', 'nbsp', 'copy', 'reg']);

const REFERENCE = /&(?:#[xX]([0-9a-fA-F]{1,8})|#([0-9]{1,10})|([A-Za-z][A-Za-z0-9]{0,31}))(;?)/g;

/**
 * Decodes character references. In attribute values a semicolon-less legacy name followed by an
 * alphanumeric or "=" stays literal, as in browsers, so "?a=1&copy=2" survives in URLs.
 */
export function decodeEntities(text: string, inAttribute = false): string {
  if (!text.includes('&')) return text;
  return text.replace(
    REFERENCE,
    (
      whole,
      hex: string | undefined,
      decimal: string | undefined,
      name: string | undefined,
      semicolon: string,
      offset: number,
    ) => {
      if (hex !== undefined || decimal !== undefined) {
        return fromCodePoint(hex !== undefined ? parseInt(hex, 16) : parseInt(decimal ?? '', 10));
      }
      if (name === undefined) return whole;
      if (semicolon) return NAMED[name] ?? whole;
      if (!LEGACY.has(name)) return whole;
      const next = text.charAt(offset + whole.length);
      if (inAttribute && /[A-Za-z0-9=]/.test(next)) return whole;
      return NAMED[name] ?? whole;
    },
  );
}

function fromCodePoint(code: number): string {
  const invalid = !Number.isFinite(code) || code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff);
  return invalid ? '\ufffd' : String.fromCodePoint(code);
}
