// Which redirect URIs a client may register, and when a requested one matches a registered one.
import { isLoopbackHostname } from '../origin';

export const MAX_REDIRECT_URIS = 10;
const MAX_URI_LENGTH = 2000;
const LOOPBACK_IP = /^(127(\.\d{1,3}){3}|\[::1\])$/;

/**
 * https anywhere; plain http only on loopback (RFC 8252 §7.3: the native app listens on this machine, so
 * nothing travels in clear over a network). No fragment (RFC 6749 §3.1.2), no credentials. Custom schemes
 * are refused: nothing binds a scheme to one app, so any app could claim the code.
 * Returns why a URI is refused, or undefined when it is acceptable.
 */
export function redirectUriProblem(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length === 0) return 'each redirect URI must be a non-empty string';
  if (value.length > MAX_URI_LENGTH) return `a redirect URI must be at most ${MAX_URI_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${value} is not an absolute URL`;
  }
  if (url.hash || value.includes('#')) return `${value} has a fragment, which redirect URIs must not have`;
  if (url.username || url.password) return `${value} carries credentials`;
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:') {
    return isLoopbackHostname(url.hostname) ? undefined : `${value} uses http on a host other than loopback; use https (or http on 127.0.0.1, [::1] or localhost)`;
  }
  return `${value} uses the scheme ${url.protocol.replace(/:$/, '')}; only https, or http on loopback, is accepted`;
}

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
