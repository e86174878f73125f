import type { Context } from 'hono';
import { html, raw } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { randomToken } from '../../../src/crypto';

/** A fragment built with hono's `html` tag: every interpolated string is escaped. */
export type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

export interface PageOptions {
  title: string;
  body: Html;
  status?: ContentfulStatusCode;
  /** Signed-in pages get the navigation and the sign-out form (which needs the session's CSRF token). */
  signedIn?: { email: string; csrfToken: string };
  /** A nonce-tagged script for this page only (the copy button); pages work without it. */
  script?: string;
  /** Origins a form of this page may end up at besides ours: the OAuth consent form redirects to the app. */
  formActionOrigins?: string[];
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:56rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b}
nav{display:flex;gap:1rem;align-items:center;border-bottom:1px solid #ddd;padding-bottom:.5rem;margin-bottom:1rem}
nav form{margin-left:auto}table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #eee}
.notice{background:#eef6ff;border:1px solid #9cc4f0;padding:.75rem;border-radius:.3rem}
.error{background:#fff0f0;border:1px solid #e0a0a0;padding:.75rem;border-radius:.3rem}
.key{font-family:ui-monospace,monospace;width:100%;max-width:34rem;padding:.3rem}
input[type=email],input[type=text]{padding:.3rem;min-width:16rem}button{padding:.3rem .8rem;cursor:pointer}
.muted{color:#666}`;

/**
 * Renders a whole page with a strict CSP: only same-origin resources, and inline style/script only with
 * this response's nonce. Account pages are never cached (they show keys and personal data).
 */
export function renderPage(c: Context, options: PageOptions): Response | Promise<Response> {
  const nonce = randomToken(22);
  c.header(
    'Content-Security-Policy',
    `default-src 'self'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; img-src 'self' data:; ` +
      `object-src 'none'; base-uri 'none'; form-action 'self'${(options.formActionOrigins ?? []).map((o) => ` ${o}`).join('')}; frame-ancestors 'none'`,
  );
  c.header('Cache-Control', 'no-store');
  const nav = options.signedIn
    ? html`<nav><a href="/account">Overview</a><a href="/account/keys">API keys</a>
        <span class="muted">${options.signedIn.email}</span>
        <form method="post" action="/account/sign-out"><input type="hidden" name="_csrf" value="${options.signedIn.csrfToken}"><button type="submit">Sign out</button></form></nav>`
    : html`<nav><a href="/">tooldir</a></nav>`;
  const script = options.script ? html`<script nonce="${nonce}">${rawScript(options.script)}</script>` : '';
  return c.html(
    html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title} – tooldir</title><style nonce="${nonce}">${rawScript(STYLE)}</style></head>
<body>${nav}<main><h1>${options.title}</h1>${options.body}</main>${script}</body></html>`,
    options.status ?? 200,
  );
}

/** Our own constant style/script text (never user input): inserted verbatim. */
const rawScript = (text: string) => raw(text);

/** A hidden CSRF field for a form. */
export const csrfField = (token: string) => html`<input type="hidden" name="_csrf" value="${token}">`;

/** `2026-11-21 21:05 UTC`, or a dash: the one format of times for people, shared with the CLI. */
export { formatTime } from '../../../src/display-time';
