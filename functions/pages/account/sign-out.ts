// POST /account/sign-out – ends the session (POST with the session's CSRF token, never a GET link)
import type { Hono } from 'hono';
import type { AppEnv } from '../../types';
import { deleteWebSession } from '../../../src/accounts/web-sessions';
import { clearSessionCookie, readSessionCookie } from './cookies';
import { checkSessionCsrf } from './csrf';
import { readForm, sessionOrRedirect } from './session';

export function register(app: Hono<AppEnv>) {
  app.post('/sign-out', async (c) => {
    const session = await sessionOrRedirect(c);
    if (session instanceof Response) return session;
    await checkSessionCsrf(c, await readForm(c), session.csrfToken);
    await deleteWebSession(c.get('deps'), readSessionCookie(c));
    clearSessionCookie(c);
    return c.redirect('/account/sign-in?signed_out', 303);
  });
}
