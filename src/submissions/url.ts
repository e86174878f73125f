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

/** A submitted address read as people type it: `schemeAdded` when a bare host got `https://` (schemeAddedNotice). */
export type SubmittedUrl =
  | { ok: true; url: URL; schemeAdded: boolean }
  | { ok: false; message: string; notHttpUrl?: true };

/**
 * The words of every refusal of a submitted address, for people: the web form shows them next to the field, the
 * API and MCP answer them after `url: `, the CLI prints them. None claims that an address lacks `http://` when it
 * has it: a text that is no address at all gets NOT_A_URL, which names no missing part.
 */
export const NOT_A_URL = "Enter the website's address, such as https://acme.com";
const SUBJECT = 'The address';

/** `scheme:` at the start, unless it is a host and port (`acme.com:8080`, which parsers would read as a scheme). */
const SCHEME = /^([a-z][a-z0-9+.-]*):(?!\d+(?:[/?#]|$))/i;
/** A host as people type it without a scheme: a dotted name first, no spaces, credentials or backslashes. */
const BARE_HOST = /^[a-z0-9][^\s/?#@\\]*\.[^\s/?#@\\]+(?:[/?#]\S*)?$/i;

/** What a submitted address is read as, everywhere (REST, MCP, the web form, the CLI): a bare host gets https://. */
export function readSubmittedUrl(input: string): SubmittedUrl {
  const text = input.trim();
  if (text.length === 0 || (!SCHEME.test(text) && !BARE_HOST.test(text)))
    return { ok: false, message: NOT_A_URL, notHttpUrl: true };
  const schemeAdded = !SCHEME.test(text);
  const check = checkSubmittedUrl(schemeAdded ? `https://${text}` : text);
  return check.ok ? { ...check, schemeAdded } : check;
}

/** What the person is told when a bare host got https://, on every surface (docs/contract.md "Submit request"). */
export const schemeAddedNotice = (href: string) => `No scheme was given, so https:// was added: ${href}`;

/** The notices of a submit's answer for the address as sent: one when https:// was added, none otherwise. */
export function urlNotices(sent: unknown): string[] {
  if (typeof sent !== 'string') return [];
  const read = readSubmittedUrl(sent);
  return read.ok && read.schemeAdded ? [schemeAddedNotice(read.url.href)] : [];
}

/** An absolute http(s) URL with a valid host (DNS name or IP literal), a valid port and no credentials. */
export function checkSubmittedUrl(input: string): UrlCheck {
  const text = input.trim();
  if (text.length === 0) return { ok: false, message: NOT_A_URL, notHttpUrl: true };
  if (text.length > MAX_URL_LENGTH)
    return { ok: false, message: `${SUBJECT} must be at most ${MAX_URL_LENGTH} characters` };
  const spelling = urlSpellingProblem(text, SUBJECT);
  if (spelling) return { ok: false, message: spelling };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, message: NOT_A_URL, notHttpUrl: true };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return {
      ok: false,
      message: `${SUBJECT} must start with https:// or http://, not ${url.protocol}`,
      notHttpUrl: true,
    };
  }
  if (!/^https?:\/\//i.test(text)) return { ok: false, message: NOT_A_URL, notHttpUrl: true };
  if (url.username || url.password)
    return { ok: false, message: `${SUBJECT} must not contain a user name or password` };
  if (url.port === '0') return { ok: false, message: `${SUBJECT} must have a valid port` };
  // Non-ASCII paths grow when percent-encoded; the stored (canonical) form must stay within the cap too.
  if (url.href.length > MAX_URL_LENGTH) {
    return { ok: false, message: `${SUBJECT} must be at most ${MAX_URL_LENGTH} characters once encoded` };
  }
  if (!isValidHost(url.hostname))
    return { ok: false, message: `${SUBJECT} must have a full host name, such as acme.com` };
  return { ok: true, url };
}

/**
 * What is stored, published and compared for an accepted URL: the parser's own spelling (`https://Example.com` is
 * `https://example.com/`), so the record, the API, the page's link and `/go/` all name the host a browser goes to.
 */
export function storedUrl(input: string): string {
  const read = readSubmittedUrl(input);
  return read.ok ? read.url.href : new URL(input.trim()).href;
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
