import type { Context } from 'hono';
import { randomToken, timingSafeEqual } from '../../../src/crypto';
import { ServiceError } from '../../../src/errors';
import type { AppEnv } from '../../types';
import { readSignInCsrfCookie, setSignInCsrfCookie } from './cookies';
import { CSRF_FIELD, isSameOrigin } from '../../middleware/csrf';

const TOKEN = /^[0-9A-Za-z]{32}$/;
const forbidden = () =>
  new ServiceError('forbidden', 'This form has expired or did not come from this site. Reload the page and try again.');

/**
 * Defence in depth before any token check: a browser that says the request is not same-origin is refused
 * (middleware/csrf.ts, hono/csrf); a request without Origin and Sec-Fetch-Site still needs the token.
 */
export async function checkSameOrigin(c: Context<AppEnv>): Promise<void> {
  if (!(await isSameOrigin(c))) throw forbidden();
}

/** Synchronizer token: the form must echo the session's CSRF token. */
export async function checkSessionCsrf(
  c: Context<AppEnv>,
  form: Record<string, string>,
  sessionToken: string,
): Promise<void> {
  await checkSameOrigin(c);
  const given = form[CSRF_FIELD] ?? '';
  if (!given || !timingSafeEqual(given, sessionToken)) throw forbidden();
}

/** Pre-session forms: the token lives in a Strict cookie and in the page; both must match. */
export function issueSignInCsrf(c: Context<AppEnv>): string {
  const existing = readSignInCsrfCookie(c);
  const token = existing && TOKEN.test(existing) ? existing : randomToken(32);
  setSignInCsrfCookie(c, token);
  return token;
}

export async function checkSignInCsrf(c: Context<AppEnv>, form: Record<string, string>): Promise<void> {
  await checkSameOrigin(c);
  const cookie = readSignInCsrfCookie(c) ?? '';
  const given = form[CSRF_FIELD] ?? '';
  if (!TOKEN.test(cookie) || !timingSafeEqual(given, cookie)) throw forbidden();
}
