/**
 * Submitted URLs: what is accepted, and the canonical form duplicates compare by (docs/decisions.md
 * "Duplicates"): `http://` and `https://` are one site, host lower-cased, `www.` dropped, default port dropped,
 * fragment dropped, percent-encoding of unreserved characters decoded and the remaining hex digits upper-cased
 * (RFC 3986 6.2.2.1-2), repeated slashes in the path collapsed, a trailing `index.html`/`index.htm`/`index.php` (in
 * any case) and the trailing slash of the path dropped, tracking parameters dropped, remaining query parameters sorted. The form is a comparison key, never
 * shown or fetched: the record keeps the URL as submitted, in the one spelling every URL parser reads alike
 * (`new URL(x).href`, see `storedUrl`); a text that parsers read differently is refused (src/url-spelling.ts).
 */
import { urlSpellingProblem } from '../url-spelling';

const MAX_URL_LENGTH = 2048;
const TRACKING_PARAM = /^(utm_.*|ref|fbclid|gclid|mc_cid|mc_eid)$/i;
/** `www.` is dropped only while a registrable-looking name remains (`www.example.com`, not `www.com`). */
const WWW = /^www\.(?=[^.]+\.[^.])/;
/** RFC 3986 2.3: ALPHA / DIGIT / "-" / "." / "_" / "~". */
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
/** The last path segment a server answers for its directory, in any case; only as the whole last segment. */
const INDEX_FILE = /\/index\.(?:html?|php)$/i;
const DNS_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/** `notHttpUrl`: the text is no absolute http(s) URL at all (no scheme, another scheme, unparsable), not a bad part of one. */
export type UrlCheck = { ok: true; url: URL } | { ok: false; message: string; notHttpUrl?: true };

/** An absolute http(s) URL with a valid host (DNS name or IP literal), a valid port and no credentials. */
export function checkSubmittedUrl(input: string): UrlCheck {
  const text = input.trim();
  if (text.length === 0) return { ok: false, message: 'url must not be empty' };
  if (text.length > MAX_URL_LENGTH) return { ok: false, message: `url must be at most ${MAX_URL_LENGTH} characters` };
  const spelling = urlSpellingProblem(text, 'url');
  if (spelling) return { ok: false, message: spelling };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, message: 'url must be an absolute http or https URL', notHttpUrl: true };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, message: 'url must use http or https', notHttpUrl: true };
  }
  if (!/^https?:\/\//i.test(text))
    return { ok: false, message: 'url must be an absolute http or https URL', notHttpUrl: true };
  if (url.username || url.password) return { ok: false, message: 'url must not contain credentials' };
  if (url.port === '0') return { ok: false, message: 'url must have a valid port' };
  // Non-ASCII paths grow when percent-encoded; the stored (canonical) form must stay within the cap too.
  if (url.href.length > MAX_URL_LENGTH) {
    return { ok: false, message: `url must be at most ${MAX_URL_LENGTH} characters once encoded` };
  }
  if (!isValidHost(url.hostname)) return { ok: false, message: 'url must have a valid host name' };
  return { ok: true, url };
}

/**
 * What is stored, published and compared for an accepted URL: the parser's own spelling (`https://Example.com` is
 * `https://example.com/`), so the record, the API, the page's link and `/go/` all name the host a browser goes to.
 */
export function storedUrl(input: string): string {
  return new URL(input.trim()).href;
}

function isValidHost(hostname: string): boolean {
  if (hostname.startsWith('[') && hostname.endsWith(']')) return true; // IPv6 literal, parsed by URL already
  if (IPV4.test(hostname)) return true; // URL normalised any IPv4 spelling to dotted decimal
  const host = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  if (host.length === 0 || host.length > 253) return false;
  const labels = host.split('.');
  if (labels.length < 2) return false; // a website needs a registrable name, not a bare label
  if (/^\d+$/.test(labels.at(-1)!)) return false;
  return labels.every((label) => DNS_LABEL.test(label));
}

/** The canonical form of an accepted URL (see the file comment). */
export function canonicalUrl(url: URL): string {
  // WHATWG URL parsing has already lower-cased the host, mapped an IDN to punycode (UTS #46, so a full-width or
  // upper-case host is the same host), decoded percent-encoding in the host, resolved `.`/`..` segments (also
  // spelled `%2e`) and dropped the default port of the URL's own scheme.
  const host = url.hostname.replace(/\.$/, '').replace(WWW, '');
  const port = url.port ? `:${url.port}` : '';
  // One scheme for both: a site answering on http and https is one site (DECISIONS.md "Duplicates").
  return `https://${host}${port}${canonicalPath(url.pathname)}${canonicalQuery(url.searchParams)}`;
}

/**
 * `/%61pp/index.html`, `//app/INDEX.HTML` and `/app/` are `/app`. Reserved characters stay encoded (`%2F` is not `/`), and so does
 * anything outside ASCII, so two paths that differ only in how they were typed compare equal.
 */
function canonicalPath(pathname: string): string {
  const decoded = pathname.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => {
    const char = String.fromCharCode(Number.parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`;
  });
  // Servers answer `//app` as `/app`: empty segments do not make another page.
  return decoded
    .replace(/\/{2,}/g, '/')
    .replace(/\/+$/, '')
    .replace(INDEX_FILE, '')
    .replace(/\/+$/, '');
}

/**
 * Query parameters compare as decoded name/value pairs (so `%7E`, `~` and `%7e` are one value), without
 * tracking parameters, sorted, then re-encoded one way. A query is kept after a dropped `index.php`:
 * `/index.php?page=2` is `/?page=2`, not the home page.
 */
function canonicalQuery(searchParams: URLSearchParams): string {
  const params = [...searchParams.entries()]
    .filter(([key]) => !TRACKING_PARAM.test(key))
    .sort(([ka, va], [kb, vb]) => (ka === kb ? (va < vb ? -1 : va > vb ? 1 : 0) : ka < kb ? -1 : 1));
  return params.length ? `?${new URLSearchParams(params).toString()}` : '';
}
