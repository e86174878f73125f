// The same-origin half of every form's CSRF defence, and the one name of the form field that carries the token
// half. Used by the account and submit pages (pages/account/csrf.ts), the editor's page (admin/editor-page.ts),
// the local checkout's Pay form (pages/checkout.ts) and the weekly report's unsubscribe form.
import type { Context, MiddlewareHandler } from 'hono';
import { csrf } from 'hono/csrf';
import { html } from 'hono/html';
import { HTTPException } from 'hono/http-exception';
import type { AppEnv } from '../types';

/** The form field that carries a CSRF token, on every form we render. */
export const CSRF_FIELD = '_csrf';

/** The hidden field every POST form carries. */
export const csrfField = (token: string) => html`<input type="hidden" name="${CSRF_FIELD}" value="${token}">`;

/**
 * What the browser says about where the request comes from, judged by hono/csrf one header at a time: Sec-Fetch-Site
 * must be same-origin (or none: the user's own action) and Origin must be ours, each when it is sent. hono/csrf
 * alone passes a request when either header is fine; here both must be (a cross-site Sec-Fetch-Site next to our
 * Origin is refused, as the account forms always did). Ours is deps.origin (src/origin.ts), never the Host header:
 * a rebinding name for this host is another site. hono/csrf looks only at bodies a cross-site page can send
 * without a CORS preflight (form encodings and text/plain); any other body cannot be forged across sites, and
 * carries no form token either.
 */
const fetchSiteCheck = csrf({ origin: () => false, secFetchSite: ['same-origin', 'none'] });
const originCheck = csrf({
  origin: (origin, c) => origin === (c as Context<AppEnv>).get('deps').origin,
  secFetchSite: () => false,
});

async function passes(check: MiddlewareHandler, c: Context<AppEnv>): Promise<boolean> {
  try {
    await check(c, async () => {});
    return true;
  } catch (error) {
    if (error instanceof HTTPException && error.status === 403) return false;
    throw error;
  }
}

/**
 * Whether a POST may be a same-origin form post. A request with neither Origin nor Sec-Fetch-Site is no
 * browser's (curl, a mail client's one-click unsubscribe, tests): the form token alone decides for it.
 */
export async function isSameOrigin(c: Context<AppEnv>): Promise<boolean> {
  if (c.req.header('sec-fetch-site') !== undefined && !(await passes(fetchSiteCheck, c))) return false;
  if (c.req.header('origin') !== undefined && !(await passes(originCheck, c))) return false;
  return true;
}
