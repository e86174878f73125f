/**
 * Submitted URLs: what is accepted, and the canonical form duplicates compare by (DECISIONS.md "Duplicates"):
 * scheme and host lower-cased, `www.` dropped, default port dropped, fragment dropped, trailing slash of the
 * path dropped, tracking parameters dropped, remaining query parameters sorted.
 */

const MAX_URL_LENGTH = 2048;
const TRACKING_PARAM = /^(utm_.*|ref|fbclid|gclid)$/i;
const DNS_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

export type UrlCheck = { ok: true; url: URL } | { ok: false; message: string };

/** An absolute http(s) URL with a valid host (DNS name or IP literal), a valid port and no credentials. */
export function checkSubmittedUrl(input: string): UrlCheck {
  const text = input.trim();
  if (text.length === 0) return { ok: false, message: 'url must not be empty' };
  if (text.length > MAX_URL_LENGTH) return { ok: false, message: `url must be at most ${MAX_URL_LENGTH} characters` };
  if (/[\u0000-\u001f\u007f\s]/.test(text)) return { ok: false, message: 'url must not contain spaces or control characters' };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, message: 'url must be an absolute http or https URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, message: 'url must use http or https' };
  }
  if (!/^https?:\/\//i.test(text)) return { ok: false, message: 'url must be an absolute http or https URL' };
  if (url.username || url.password) return { ok: false, message: 'url must not contain credentials' };
  if (url.port === '0') return { ok: false, message: 'url must have a valid port' };
  // Non-ASCII paths grow when percent-encoded; the stored (canonical) form must stay within the cap too.
  if (url.href.length > MAX_URL_LENGTH) {
    return { ok: false, message: `url must be at most ${MAX_URL_LENGTH} characters once encoded` };
  }
  if (!isValidHost(url.hostname)) return { ok: false, message: 'url must have a valid host name' };
  return { ok: true, url };
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
  const host = url.hostname.replace(/\.$/, '').replace(/^www\./, '');
  const port = url.port ? `:${url.port}` : ''; // URL already drops the scheme's default port
  const path = url.pathname.replace(/\/+$/, '');
  const params = [...url.searchParams.entries()]
    .filter(([key]) => !TRACKING_PARAM.test(key))
    .sort(([ka, va], [kb, vb]) => (ka === kb ? (va < vb ? -1 : va > vb ? 1 : 0) : ka < kb ? -1 : 1));
  const query = params.length ? `?${new URLSearchParams(params).toString()}` : '';
  return `${url.protocol}//${host}${port}${path}${query}`;
}
