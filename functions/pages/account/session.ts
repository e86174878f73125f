import type { Context } from 'hono';
import { findWebSession, type WebSession } from '../../../src/accounts/web-sessions';
import { ServiceError } from '../../../src/errors';
import type { AppEnv } from '../../types';
import { clearSessionCookie, readSessionCookie } from './cookies';
import { signInPath } from '../next-path';

/**
 * The signed-in session from the cookie, or the redirect to the sign-in page that the handler returns. Sign-in
 * comes back to `next` (a path of ours) when given; else a page read (GET) comes back to itself, and a form post
 * lands on the account page (a form sent signed out is sent again from its page, never replayed).
 * @example const session = await sessionOrRedirect(c); if (session instanceof Response) return session;
 * @example const session = await sessionOrRedirect(c, '/account/membership?tier=member');
 */
export async function sessionOrRedirect(c: Context<AppEnv>, next?: string): Promise<WebSession | Response> {
  const token = readSessionCookie(c);
  const session = await findWebSession(c.get('deps'), token);
  if (session) return session;
  if (token !== undefined) clearSessionCookie(c);
  const url = new URL(c.req.url);
  const back = next ?? (c.req.method === 'GET' ? `${url.pathname}${url.search}` : '/account');
  return c.redirect(back === '/account' ? '/account/sign-in' : signInPath(back), 303);
}

/** The live session for this request, if any (for pages that only change when signed in). */
export const currentSession = (c: Context<AppEnv>) => findWebSession(c.get('deps'), readSessionCookie(c));

/** The string fields of an urlencoded or multipart form; anything else is a bad request. */
export async function readForm(c: Context): Promise<Record<string, string>> {
  const type = c.req.header('content-type') ?? '';
  if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(type)) {
    throw new ServiceError('invalid_request', 'Send this form from the page.');
  }
  const body = await c.req.parseBody();
  const form: Record<string, string> = {};
  for (const [name, value] of Object.entries(body)) if (typeof value === 'string') form[name] = value;
  return form;
}
