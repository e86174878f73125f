// Spellings of an http(s) URL that URL parsers read differently. WHATWG parsers (browsers, Node, workerd) rewrite
// them before reading: tabs and line breaks are dropped, a backslash is a slash, any number of slashes after the
// scheme is two. RFC 3986 parsers (curl, most HTTP libraries, Go, Python) keep them, so one text names two places:
// `http://tool.localhost:8000\@evil.example/` is tool.localhost to a browser and evil.example to the others.
// Such a text is refused; every other URL is stored and published as the parser reads it (`new URL(x).href`), a
// spelling all parsers agree on. Submitted tool URLs (src/submissions/url.ts) and webhook URLs use this rule.

const WHITESPACE_OR_CONTROL = /[\u0000-\u001f\u007f\s]/u;
/** An http(s) scheme followed by exactly two slashes and then something other than a third slash. */
const TWO_SLASHES = /^https?:\/\/(?!\/)/i;
const HTTP_SCHEME = /^https?:/i;

/**
 * Why `text` (already trimmed) would be read differently by different URL parsers, as a message naming `field`
 * (an API field such as `url`, or a subject for people such as `The address`); undefined when it would not.
 *
 * @example urlSpellingProblem('http://a.example\\@b.example/', 'url') // 'url must not contain a backslash …'
 */
export function urlSpellingProblem(text: string, field: string): string | undefined {
  if (WHITESPACE_OR_CONTROL.test(text)) return `${field} must not contain spaces or control characters`;
  if (text.includes('\\')) {
    return `${field} must not contain a backslash (\\): browsers read it as a slash, other URL parsers do not, so the address would lead to different hosts`;
  }
  if (HTTP_SCHEME.test(text) && !TWO_SLASHES.test(text)) {
    return `${field} must be an absolute URL with exactly two slashes after the scheme, such as https://example.com/`;
  }
  return undefined;
}
