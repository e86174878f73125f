// GET/POST /account/sign-in and POST /account/sign-in/code – password-less sign-in with an e-mailed code
import type { Context, Hono } from 'hono';
import { html } from 'hono/html';
import { CODE_TTL_MINUTES, KNOWN_BROWSER_DAYS, issueKnownBrowserToken, normalizeEmail } from '../../../src/accounts/sign-in';
import { requestSignInCode } from '../../../src/accounts/sign-in-request';
import { verifySignInCode } from '../../../src/accounts/sign-in-verify';
import { createWebSession } from '../../../src/accounts/web-sessions';
import { ServiceError } from '../../../src/errors';
import type { AppEnv } from '../../types';
import { clientIp } from '../../middleware/client-ip';
import {
  clearSignInChallengeCookie,
  clearSignInCsrfCookie,
  readKnownBrowserCookie,
  readSignInChallengeCookie,
  setKnownBrowserCookie,
  setSessionCookie,
  setSignInChallengeCookie,
} from './cookies';
import { checkSignInCsrf, issueSignInCsrf } from './csrf';
import { csrfField, renderPage } from './layout';
import { limitSignIn } from './sign-in-limits';
import { isConsentReturnPath } from './consent-page';
import { currentSession, readForm } from './session';

/**
 * Where sign-in returns to: only the consent page (isConsentReturnPath), else nowhere. A `next` with a line break
 * or any other control character is a 400, never passed on: it would end up in the Location header.
 */
function returnPath(next: string | undefined): string | undefined {
  if (next !== undefined && /[\u0000-\u001f\u007f]/.test(next)) {
    throw new ServiceError('invalid_request', 'The return address (next) must not contain line breaks or other control characters.');
  }
  return isConsentReturnPath(next) ? next : undefined;
}

/** An OAuth consent page waiting for this sign-in (consent-page.ts); carried through both forms. */
const nextField = (next: string | undefined) => (next ? html`<input type="hidden" name="next" value="${next}">` : '');

function emailForm(c: Context<AppEnv>, message?: { kind: 'notice' | 'error'; text: string }, status: 200 | 400 = 200, next?: string) {
  const closed = !c.get('deps').config.signupOpen;
  return renderPage(c, {
    title: 'Sign in',
    status,
    body: html`${message ? html`<p class="${message.kind}" role="status">${message.text}</p>` : ''}
<p>Enter your e-mail address. We send you a 6-digit code; no password needed.${closed ? ' New sign-ups are closed: only existing accounts can sign in.' : ' A new address gets a new account.'}</p>
<form method="post" action="/account/sign-in">${csrfField(issueSignInCsrf(c))}${nextField(next)}
<label>E-mail <input type="email" name="email" required autocomplete="email" autofocus></label>
<button type="submit">Send code</button></form>`,
  });
}

function codeForm(c: Context<AppEnv>, email: string, message: { kind: 'notice' | 'error'; text: string }, status: 200 | 400 | 401 | 429 = 200, next?: string) {
  return renderPage(c, {
    title: 'Enter your code',
    status,
    body: html`<p class="${message.kind}" role="status">${message.text}</p>
<form method="post" action="/account/sign-in/code">${csrfField(issueSignInCsrf(c))}
<input type="hidden" name="email" value="${email}">${nextField(next)}
<label>Code <input type="text" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]{6,7}" maxlength="7" required autofocus></label>
<button type="submit">Sign in</button></form>
<p><a href="/account/sign-in">Use another address or ask for a new code</a></p>`,
  });
}

export function register(app: Hono<AppEnv>) {
  app.get('/sign-in', async (c) => {
    const returnTo = returnPath(c.req.query('next'));
    if (await currentSession(c)) return c.redirect(returnTo ?? '/account', 303);
    const signedOut = c.req.query('signed_out') !== undefined;
    const notice = returnTo ? 'Sign in to decide whether the app may connect to your account.' : signedOut ? 'You are signed out.' : undefined;
    return emailForm(c, notice ? { kind: 'notice', text: notice } : undefined, 200, returnTo);
  });

  app.post('/sign-in', async (c) => {
    const form = await readForm(c);
    checkSignInCsrf(c, form);
    const next = returnPath(form.next);
    const email = normalizeEmail(form.email ?? '');
    if (!email) return emailForm(c, { kind: 'error', text: 'That does not look like an e-mail address.' }, 400, next);
    await limitSignIn(c, 'code-request');
    const deps = c.get('deps');
    const issued = await requestSignInCode(deps, { email, client: clientIp(c), knownBrowser: readKnownBrowserCookie(c) });
    if (!issued.ok) {
      // This browser's earlier code (if any) still works: the page keeps the code field.
      c.header('Retry-After', String(issued.retryAfterSeconds));
      const minutes = Math.ceil(issued.retryAfterSeconds / 60);
      const text = `Too many codes were asked for this address in the last hour. Enter the newest code sent to this browser, or ask again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`;
      return codeForm(c, email, { kind: 'error', text }, 429, next);
    }
    setSignInChallengeCookie(c, issued.challenge, CODE_TTL_MINUTES * 60);
    // The same page whatever the address: it never tells whether an address has an account.
    const text = deps.config.signupOpen
      ? `We sent a 6-digit code to ${email}. It is valid for ${CODE_TTL_MINUTES} minutes and works only in this browser (reference ${issued.reference}).`
      : `If an account exists for ${email}, we sent it a 6-digit code, valid for ${CODE_TTL_MINUTES} minutes, that works only in this browser (reference ${issued.reference}). New sign-ups are closed.`;
    return codeForm(c, email, { kind: 'notice', text }, 200, next);
  });

  app.post('/sign-in/code', async (c) => {
    const form = await readForm(c);
    checkSignInCsrf(c, form);
    const next = returnPath(form.next);
    const email = normalizeEmail(form.email ?? '');
    if (!email) return emailForm(c, { kind: 'error', text: 'That does not look like an e-mail address.' }, 400, next);
    await limitSignIn(c, 'code-attempt');
    const deps = c.get('deps');
    const code = (form.code ?? '').replace(/\s+/g, '');
    const result = await verifySignInCode(deps, { email, code, challenge: readSignInChallengeCookie(c) });
    if (!result.ok) {
      switch (result.reason) {
        case 'wrong':
          return codeForm(c, email, { kind: 'error', text: `That code is not right. ${result.triesLeft} ${result.triesLeft === 1 ? 'try' : 'tries'} left.` }, 401, next);
        case 'locked':
          return codeForm(c, email, { kind: 'error', text: 'Too many wrong codes: this code no longer works. Ask for a new one; it starts with fresh tries.' }, 429, next);
        case 'expired':
        case 'signup_closed':
          return codeForm(c, email, { kind: 'error', text: 'This code has expired, was already used, or was asked for in another browser. Ask for a new one.' }, 401, next);
      }
    }
    const session = await createWebSession(deps, result.account);
    setSessionCookie(c, session.token, session.expiresAt);
    setKnownBrowserCookie(c, await issueKnownBrowserToken(deps.config, email), KNOWN_BROWSER_DAYS * 86_400);
    clearSignInCsrfCookie(c);
    clearSignInChallengeCookie(c);
    return c.redirect(next ?? '/account', 303);
  });
}
