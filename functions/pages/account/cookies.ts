import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { isLoopbackHostname } from '../../../src/origin';

/**
 * The account session cookie (HttpOnly, SameSite=Lax, Secure except plain http on loopback). Its path is the
 * whole site: /submit and /pricing act for the signed-in person, and every page's header says "Account".
 */
export const SESSION_COOKIE = 'tooldir_session';
/** Double-submit CSRF token for the sign-in forms, which run before there is a session. */
export const SIGN_IN_CSRF_COOKIE = 'tooldir_signin_csrf';
/** The browser's sign-in challenge: names the one code this browser may enter (docs/account.md). */
export const SIGN_IN_CHALLENGE_COOKIE = 'tooldir_signin_challenge';
/** Proves this browser signed in as an address before: it gets a code budget of its own (docs/account.md). */
export const KNOWN_BROWSER_COOKIE = 'tooldir_known_browser';
/** Carries a just-created API key to the one page view that shows it, then is cleared. */
export const NEW_KEY_COOKIE = 'tooldir_new_key';

/**
 * `Secure` always, except for plain http on a loopback host: a Secure cookie set over plain http is
 * dropped by several browsers (Safari always; others for 127.0.0.1), so local `npm start` over http
 * could otherwise never sign anyone in. A deployment behind
 * TLS (or any non-loopback host) always gets Secure.
 */
export function cookieIsSecure(c: Context): boolean {
  const url = new URL(c.req.url);
  return !(url.protocol === 'http:' && isLoopbackHostname(url.hostname));
}

export function setSessionCookie(c: Context, token: string, expiresAt: Date): void {
  // A cookie from before the path was widened would shadow the new one under /account: drop it.
  if (getCookie(c, SESSION_COOKIE) !== undefined)
    deleteCookie(c, SESSION_COOKIE, { path: '/account', httpOnly: true, secure: cookieIsSecure(c), sameSite: 'Lax' });
  setCookie(c, SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    secure: cookieIsSecure(c),
    sameSite: 'Lax',
    expires: expiresAt,
  });
}

export const readSessionCookie = (c: Context) => getCookie(c, SESSION_COOKIE);

export function clearSessionCookie(c: Context): void {
  deleteCookie(c, SESSION_COOKIE, { path: '/', httpOnly: true, secure: cookieIsSecure(c), sameSite: 'Lax' });
  deleteCookie(c, SESSION_COOKIE, { path: '/account', httpOnly: true, secure: cookieIsSecure(c), sameSite: 'Lax' });
}

export function setSignInCsrfCookie(c: Context, token: string): void {
  setCookie(c, SIGN_IN_CSRF_COOKIE, token, {
    path: '/account/sign-in',
    httpOnly: true,
    secure: cookieIsSecure(c),
    sameSite: 'Strict',
    maxAge: 3600,
  });
}

export const readSignInCsrfCookie = (c: Context) => getCookie(c, SIGN_IN_CSRF_COOKIE);

export function clearSignInCsrfCookie(c: Context): void {
  deleteCookie(c, SIGN_IN_CSRF_COOKIE, {
    path: '/account/sign-in',
    httpOnly: true,
    secure: cookieIsSecure(c),
    sameSite: 'Strict',
  });
}

/** Lives as long as the code it names; Strict and HttpOnly like the CSRF cookie beside it. */
export function setSignInChallengeCookie(c: Context, challenge: string, maxAgeSeconds: number): void {
  setCookie(c, SIGN_IN_CHALLENGE_COOKIE, challenge, {
    path: '/account/sign-in',
    httpOnly: true,
    secure: cookieIsSecure(c),
    sameSite: 'Strict',
    maxAge: maxAgeSeconds,
  });
}

export const readSignInChallengeCookie = (c: Context) => getCookie(c, SIGN_IN_CHALLENGE_COOKIE);

export function clearSignInChallengeCookie(c: Context): void {
  deleteCookie(c, SIGN_IN_CHALLENGE_COOKIE, {
    path: '/account/sign-in',
    httpOnly: true,
    secure: cookieIsSecure(c),
    sameSite: 'Strict',
  });
}

/** Long-lived, sent only to the sign-in forms; it opens a code budget, never a session. */
export function setKnownBrowserCookie(c: Context, token: string, maxAgeSeconds: number): void {
  setCookie(c, KNOWN_BROWSER_COOKIE, token, {
    path: '/account/sign-in',
    httpOnly: true,
    secure: cookieIsSecure(c),
    sameSite: 'Strict',
    maxAge: maxAgeSeconds,
  });
}

export const readKnownBrowserCookie = (c: Context) => getCookie(c, KNOWN_BROWSER_COOKIE);

/** Strict and short-lived: the key reaches only the very next view of the keys page. */
export function setNewKeyCookie(c: Context, key: string): void {
  setCookie(c, NEW_KEY_COOKIE, key, {
    path: '/account/keys',
    httpOnly: true,
    secure: cookieIsSecure(c),
    sameSite: 'Strict',
    maxAge: 300,
  });
}

/** Reads the just-created key and clears it in the same response, so a reload no longer shows it. */
export function takeNewKeyCookie(c: Context): string | undefined {
  const key = getCookie(c, NEW_KEY_COOKIE);
  if (key !== undefined) {
    deleteCookie(c, NEW_KEY_COOKIE, {
      path: '/account/keys',
      httpOnly: true,
      secure: cookieIsSecure(c),
      sameSite: 'Strict',
    });
  }
  return key;
}

/** Carries a just-created webhook's id and signing secret to the one page view that shows it, then is cleared. */
export const NEW_WEBHOOK_COOKIE = 'tooldir_new_webhook';

/** Strict and short-lived, like the new-key cookie: the secret reaches only the very next view of the webhooks page. */
export function setNewWebhookCookie(c: Context, webhookId: string, secret: string): void {
  setCookie(c, NEW_WEBHOOK_COOKIE, `${webhookId}.${secret}`, {
    path: '/account/webhooks',
    httpOnly: true,
    secure: cookieIsSecure(c),
    sameSite: 'Strict',
    maxAge: 300,
  });
}

/** Reads the just-created webhook's id and secret and clears the cookie in the same response. */
export function takeNewWebhookCookie(c: Context): { webhookId: string; secret: string } | undefined {
  const value = getCookie(c, NEW_WEBHOOK_COOKIE);
  if (value === undefined) return undefined;
  deleteCookie(c, NEW_WEBHOOK_COOKIE, {
    path: '/account/webhooks',
    httpOnly: true,
    secure: cookieIsSecure(c),
    sameSite: 'Strict',
  });
  const dot = value.indexOf('.');
  return dot > 0 ? { webhookId: value.slice(0, dot), secret: value.slice(dot + 1) } : undefined;
}
