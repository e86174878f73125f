// Which redirect URIs a client may register, when a requested one matches a registered one, and how the consent
// page names and allows the place a person returns to.
import { isLoopbackHostname } from '../origin';
import { appSchemeProblem } from './app-schemes';

export const MAX_REDIRECT_URIS = 10;
const MAX_URI_LENGTH = 2000;
const LOOPBACK_IP = /^(127(\.\d{1,3}){3}|\[::1\])$/;
/** Spaces and control characters: a URL parser drops or rejects them, so what was registered is not what it reads. */
const UNPARSED_CHARACTERS = /[\u0000-\u0020\u007f]/;
/** A DNS name or IPv4 address (letters, digits, hyphens, dots), or a bracketed IPv6 address. */
const SAFE_HOST = /^([A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*|\[[0-9a-f:.]+\])$/;
const SHOWN_LENGTH = 100;

/**
 * https anywhere; plain http only on loopback (RFC 8252 §7.3: the native app listens on this machine); an app's
 * own scheme only when it is a reverse domain name such as `com.example.app:/cb` (RFC 8252 §7.1) or an editor's
 * from the short list in app-schemes.ts (`cursor://anysphere.cursor-mcp/oauth/callback`; PKCE, which is mandatory
 * here, is what stops another app that claims the scheme from redeeming the code). No fragment (RFC 6749 §3.1.2),
 * no credentials, and the scheme and host written exactly as a URL parser keeps them (nothing the parser would
 * drop, decode or lower-case), so the host that reaches the consent page and its CSP header is the one that was
 * registered. Returns why a URI is refused, in words that do not repeat it (the caller names the URI where the
 * reader sent it), or undefined when it is acceptable.
 */
export function redirectUriProblem(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length === 0) return 'each redirect URI must be a non-empty string';
  if (value.length > MAX_URI_LENGTH) return `a redirect URI must be at most ${MAX_URI_LENGTH} characters`;
  if (UNPARSED_CHARACTERS.test(value)) return 'it contains spaces or control characters';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'it is not an absolute URL';
  }
  if (url.hash || value.includes('#')) return 'it has a fragment, which redirect URIs must not have';
  if (url.username || url.password) return 'it carries credentials';
  const scheme = url.protocol.slice(0, -1);
  const web = scheme === 'https' || scheme === 'http';
  const schemeProblem = web ? undefined : appSchemeProblem(scheme);
  if (schemeProblem) return schemeProblem;
  const authority = url.host ? `${url.protocol}//${url.host}` : url.protocol;
  if (!value.startsWith(authority) || (url.host && !['', '/', '?'].includes(value.charAt(authority.length)))) {
    return `it is not written as a URL parser reads it (expected it to start with ${shorten(authority)})`;
  }
  if (url.hostname && !SAFE_HOST.test(url.hostname)) return 'its host has characters a host name cannot have';
  if (scheme === 'http' && !isLoopbackHostname(url.hostname)) {
    return 'it uses http on a host other than loopback; use https (or http on 127.0.0.1, [::1] or localhost)';
  }
  if (web && !url.hostname) return 'it has no host';
  return undefined;
}

/** A URI as a refusal names it: quoted, and cut short (a URI may be 2000 characters long). */
export const shownUri = (value: unknown): string => JSON.stringify(shorten(String(value)));

const shorten = (text: string) => (text.length > SHOWN_LENGTH ? `${text.slice(0, SHOWN_LENGTH)}…` : text);

/**
 * A requested redirect URI matches a registered one when the strings are equal, with one exception from
 * RFC 8252 §7.3: for http on a loopback IP literal the port may differ (a native app gets a free port per run).
 */
export function redirectUriMatches(registered: readonly string[], requested: string): boolean {
  if (registered.includes(requested)) return true;
  const asked = loopbackIpWithoutPort(requested);
  return asked !== undefined && registered.some((r) => loopbackIpWithoutPort(r) === asked);
}

function loopbackIpWithoutPort(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' || !LOOPBACK_IP.test(url.hostname)) return undefined;
  url.port = '';
  return url.href;
}

export interface RedirectTarget {
  /** What the consent page tells the person they return to: a host, or an app's scheme (`cursor://anysphere.cursor-mcp`). */
  label: string;
  /**
   * The CSP form-action source that lets the consent form's redirect reach it: the origin for http(s), the
   * scheme (`cursor:`) for a private-use scheme, whose URLs have no origin.
   */
  formAction: string;
}

/** How the consent page names and allows a redirect URI that passed redirectUriProblem. */
export function redirectTarget(redirectUri: string): RedirectTarget {
  const url = new URL(redirectUri);
  if (url.protocol === 'https:' || url.protocol === 'http:') return { label: url.host, formAction: url.origin };
  return { label: url.host ? `${url.protocol}//${url.host}` : url.protocol, formAction: url.protocol };
}
