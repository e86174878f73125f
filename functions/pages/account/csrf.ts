import type { Context } from 'hono';
import { randomToken, timingSafeEqual } from '../../../src/crypto';
import { ServiceError } from '../../../src/errors';
import type { AppEnv } from '../../types';
import { readSignInCsrfCookie, setSignInCsrfCookie } from './cookies';

const TOKEN = /^[0-9A-Za-z]{32}$/;
const forbidden = () =>
  new ServiceError('forbidden', 'This form has expired or did not come from this site. Reload the page and try again.');

/**
 * Defence in depth before any token check: a browser that says the request is cross-site, or sends an
 * Origin other than ours, is refused (a missing Origin is allowed: the token check still applies). "Ours" is
 * deps.origin (src/origin.ts), never the Host header: a rebinding name for this host is another site.
 */
export function checkSameOrigin(c: Context<AppEnv>): void {
  if (c.req.header('sec-fetch-site') === 'cross-site') throw forbidden();
  const origin = c.req.header('origin');
  if (origin === undefined) return;
  if (origin !== c.get('deps').origin) throw forbidden();
}

/** Synchronizer token: the form must echo the session's CSRF token. */
export function checkSessionCsrf(c: Context<AppEnv>, form: Record<string, string>, sessionToken: string): void {
  checkSameOrigin(c);
  const given = form._csrf ?? '';
  if (!given || !timingSafeEqual(given, sessionToken)) throw forbidden();
}

/** Pre-session forms: the token lives in a Strict cookie and in the page; both must match. */
export function issueSignInCsrf(c: Context<AppEnv>): string {
  const existing = readSignInCsrfCookie(c);
  const token = existing && TOKEN.test(existing) ? existing : randomToken(32);
  setSignInCsrfCookie(c, token);
  return token;
}

export function checkSignInCsrf(c: Context<AppEnv>, form: Record<string, string>): void {
  checkSameOrigin(c);
  const cookie = readSignInCsrfCookie(c) ?? '';
  const given = form._csrf ?? '';
  if (!TOKEN.test(cookie) || !timingSafeEqual(given, cookie)) throw forbidden();
}
