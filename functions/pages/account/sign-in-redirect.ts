import type { Context } from 'hono';
import { findWebSession, type WebSession } from '../../../src/accounts/web-sessions';
import type { AppEnv } from '../../types';
import { clearSessionCookie, readSessionCookie } from './cookies';

/**
 * The signed-in session, or the redirect to the sign-in page that brings the person back to `next` (a path of
 * ours) once signed in: a pricing row's "Become a member" must land on the membership page, not the overview.
 * @example const session = await sessionOrSignIn(c, '/account/membership?tier=member'); if (session instanceof Response) return session;
 */
export async function sessionOrSignIn(c: Context<AppEnv>, next: string): Promise<WebSession | Response> {
  const token = readSessionCookie(c);
  const session = await findWebSession(c.get('deps'), token);
  if (session) return session;
  if (token !== undefined) clearSessionCookie(c);
  return c.redirect(`/account/sign-in?next=${encodeURIComponent(next)}`, 303);
}
