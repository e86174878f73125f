// GET/POST /account/sign-in and POST /account/sign-in/code – password-less sign-in (and sign-up) with an e-mailed code
import type { Context, Hono } from 'hono';
import { html } from 'hono/html';
import {
  CODE_TTL_MINUTES,
  KNOWN_BROWSER_DAYS,
  issueKnownBrowserToken,
  normalizeEmail,
} from '../../../src/accounts/sign-in';
import { requestSignInCode } from '../../../src/accounts/sign-in-request';
import { verifySignInCode } from '../../../src/accounts/sign-in-verify';
import { createWebSession } from '../../../src/accounts/web-sessions';
import { emailDomain } from '../../../src/accounts/disposable-mail';
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
import { currentSession, readForm } from './session';
import { safeNextPath } from '../next-path';
import { SIGNUP_CLOSED_TEXT, SIGNUP_OPEN_TEXT } from './signup-words';
import { undeliveredCodeWhere } from '../../../src/accounts/sign-in-code-words';

type Message = { kind: 'notice' | 'error'; text: string };

/** Where the person was going (safeNextPath), carried through both forms and followed after the code. */
const nextField = (next: string | undefined) => (next ? html`<input type="hidden" name="next" value="${next}">` : '');

/** What the page says about the place sign-in returns to. */
function purposeOf(next: string | undefined): string | undefined {
  if (!next) return undefined;
  const path = next.split('?')[0];
  if (path === '/account/authorize') return 'Sign in to decide whether the app may connect to your account.';
  if (path === '/submit')
    return 'Sign in to submit your tool. After the code you come back to the form, with the plan you chose.';
  if (path === '/account/membership') return 'Sign in to become a member. After the code you come back to your choice.';
  return 'Sign in to continue where you were.';
}

/** A message at the top: errors are announced (role="alert"), notices are status. */
const message = (m: Message | undefined) =>
  m ? html`<p class="${m.kind}" role="${m.kind === 'error' ? 'alert' : 'status'}">${m.text}</p>` : '';

function emailForm(
  c: Context<AppEnv>,
  options: { top?: Message; fieldError?: string; email?: string; status?: 200 | 400; next?: string } = {},
) {
  const closed = !c.get('deps').config.signupOpen;
  const { fieldError, next } = options;
  const purpose = purposeOf(next);
  return renderPage(c, {
    title: 'Sign in',
    status: options.status ?? 200,
    narrow: true,
    body: html`${message(options.top)}${purpose ? html`<p class="notice" role="status" id="purpose">${purpose}</p>` : ''}
<p>Enter your e-mail address. We send you a 6-digit code; no password needed.</p>
${closed ? html`<p class="notice" id="signup-closed">${SIGNUP_CLOSED_TEXT}</p>` : html`<p class="muted" id="signup-open">${SIGNUP_OPEN_TEXT}</p>`}
<form method="post" action="/account/sign-in">${csrfField(issueSignInCsrf(c))}${nextField(next)}
<div class="field"><label for="email">E-mail</label>
<input id="email" type="email" name="email" value="${options.email ?? ''}" required autocomplete="email" maxlength="254" autofocus${
      fieldError ? html` aria-invalid="true" aria-describedby="email-error"` : ''
    }>${fieldError ? html`<span class="field-error" id="email-error">${fieldError}</span>` : ''}</div>
<div class="actions"><button type="submit" class="primary">Send code</button></div></form>`,
  });
}

function codeForm(c: Context<AppEnv>, email: string, top: Message, status: 200 | 400 | 401 | 429 = 200, next?: string) {
  const deps = c.get('deps');
  const where = undeliveredCodeWhere(deps.config, deps.mail.kind);
  return renderPage(c, {
    title: 'Enter your code',
    status,
    narrow: true,
    body: html`${message(top)}${where ? html`<p class="notice" id="code-where">${where}</p>` : ''}
<form method="post" action="/account/sign-in/code">${csrfField(issueSignInCsrf(c))}
<input type="hidden" name="email" value="${email}">${nextField(next)}
<div class="field"><label for="code">Code</label>
<input id="code" type="text" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]{6,7}" maxlength="7" required autofocus></div>
<div class="actions"><button type="submit" class="primary">Sign in</button></div></form>
<p><a href="${next ? `/account/sign-in?next=${encodeURIComponent(next)}` : '/account/sign-in'}">Use another address or ask for a new code</a></p>`,
  });
}

const notAnAddress = 'That does not look like an e-mail address.';

export function register(app: Hono<AppEnv>) {
  app.get('/sign-in', async (c) => {
    const next = safeNextPath(c.req.query('next'));
    if (await currentSession(c)) return c.redirect(next ?? '/account', 303);
    const signedOut = c.req.query('signed_out') !== undefined;
    return emailForm(c, {
      top: signedOut && !next ? { kind: 'notice', text: 'You are signed out.' } : undefined,
      next,
    });
  });

  app.post('/sign-in', async (c) => {
    const form = await readForm(c);
    await checkSignInCsrf(c, form);
    const next = safeNextPath(form.next);
    const typed = (form.email ?? '').slice(0, 254);
    const email = normalizeEmail(typed);
    if (!email)
      return emailForm(c, {
        top: { kind: 'error', text: notAnAddress },
        fieldError: notAnAddress,
        email: typed,
        status: 400,
        next,
      });
    await limitSignIn(c, 'code-request');
    const deps = c.get('deps');
    const issued = await requestSignInCode(deps, {
      email,
      client: clientIp(c),
      knownBrowser: readKnownBrowserCookie(c),
    });
    if (!issued.ok && issued.reason === 'disposable_address') {
      const text = `Addresses at ${emailDomain(email)} are disposable (temporary) mail, which we do not accept. Use an address you keep: the code, review notices and receipts go there.`;
      return emailForm(c, { top: { kind: 'error', text }, fieldError: text, email: typed, status: 400, next });
    }
    if (!issued.ok) {
      // This browser's earlier code (if any) still works: the page keeps the code field.
      c.header('Retry-After', String(issued.retryAfterSeconds));
      const minutes = Math.ceil(issued.retryAfterSeconds / 60);
      const text = `Too many codes were asked for this address just now. Enter the newest code sent to this browser, or ask again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`;
      return codeForm(c, email, { kind: 'error', text }, 429, next);
    }
    setSignInChallengeCookie(c, issued.challenge, CODE_TTL_MINUTES * 60);
    // The same page whatever the address: it never tells whether an address has an account.
    const text = deps.config.signupOpen
      ? `We sent a 6-digit code to ${email}. It is valid for ${CODE_TTL_MINUTES} minutes and works only in this browser (reference ${issued.reference}).`
      : `If an account exists for ${email}, we sent it a 6-digit code, valid for ${CODE_TTL_MINUTES} minutes, that works only in this browser (reference ${issued.reference}). ${SIGNUP_CLOSED_TEXT}`;
    return codeForm(c, email, { kind: 'notice', text }, 200, next);
  });

  app.post('/sign-in/code', async (c) => {
    const form = await readForm(c);
    await checkSignInCsrf(c, form);
    const next = safeNextPath(form.next);
    const email = normalizeEmail(form.email ?? '');
    if (!email) return emailForm(c, { top: { kind: 'error', text: notAnAddress }, status: 400, next });
    await limitSignIn(c, 'code-attempt');
    const deps = c.get('deps');
    const code = (form.code ?? '').replace(/\s+/g, '');
    const result = await verifySignInCode(deps, { email, code, challenge: readSignInChallengeCookie(c) });
    if (!result.ok) {
      switch (result.reason) {
        case 'wrong':
          return codeForm(
            c,
            email,
            {
              kind: 'error',
              text: `That code is not right. ${result.triesLeft} ${result.triesLeft === 1 ? 'try' : 'tries'} left.`,
            },
            401,
            next,
          );
        case 'locked':
          return codeForm(
            c,
            email,
            {
              kind: 'error',
              text: 'Too many wrong codes: this code no longer works. Ask for a new one; it starts with fresh tries.',
            },
            429,
            next,
          );
        case 'expired':
        case 'signup_closed':
          return codeForm(
            c,
            email,
            {
              kind: 'error',
              text: 'This code has expired, was already used, or was asked for in another browser. Ask for a new one.',
            },
            401,
            next,
          );
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
