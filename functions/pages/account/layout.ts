import type { Context } from 'hono';
import { html } from 'hono/html';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '../../types';
import { renderDocument } from '../shell/document';
import type { Html } from '../shell/html';
import { csrfField } from '../../middleware/csrf';

export type { Html } from '../shell/html';

/** The account area's own pages, in the order of its navigation. */
const ACCOUNT_NAV = [
  { href: '/account', label: 'Overview' },
  { href: '/account/keys', label: 'API keys' },
  { href: '/account/webhooks', label: 'Webhooks' },
  { href: '/account/domains', label: 'Domains' },
  { href: '/account/mail', label: 'Mail' },
] as const;

export interface PageOptions {
  title: string;
  body: Html;
  status?: ContentfulStatusCode;
  /** Signed-in pages get the account navigation and the sign-out form (which needs the session's CSRF token). */
  signedIn?: { email: string; csrfToken: string };
  /** Our own fixed script for this page only (the copy button), allowed by its hash; pages work without it. */
  script?: string;
  /** Origins a form of this page may end up at besides ours: the OAuth consent form redirects to the app. */
  formActionOrigins?: string[];
  /** Forms use the narrow column. */
  narrow?: boolean;
}

function accountNav(c: Context, signedIn: { email: string; csrfToken: string }): Html {
  return html`<nav class="sub" aria-label="Your account"><ul>${ACCOUNT_NAV.map(
    (item) =>
      html`<li><a href="${item.href}"${c.req.path === item.href ? html` aria-current="page"` : ''}>${item.label}</a></li>`,
  )}<li class="muted me">${signedIn.email}</li>
<li><form class="inline" method="post" action="/account/sign-out">${csrfField(signedIn.csrfToken)}<button type="submit">Sign out</button></form></li></ul></nav>`;
}

/**
 * Renders a page of the account area (and of checkout and consent): the site's shell, never cached (these
 * pages show keys and personal data) and never indexed.
 */
export function renderPage(c: Context<AppEnv>, options: PageOptions): Response | Promise<Response> {
  c.header('Cache-Control', 'no-store');
  return renderDocument(c, {
    title: `${options.title} – tooldir`,
    head: html`<meta name="robots" content="noindex">`,
    // Above the column, as wide as the header: Sign out sits in the same place on every account page, narrow or wide.
    subnav: options.signedIn ? accountNav(c, options.signedIn) : undefined,
    main: html`<h1>${options.title}</h1>${options.body}`,
    status: options.status ?? 200,
    script: options.script,
    formActionOrigins: options.formActionOrigins,
    signedIn: options.signedIn !== undefined,
    current: c.req.path.startsWith('/account/sign-in') ? 'sign-in' : options.signedIn ? 'account' : undefined,
    narrow: options.narrow,
  });
}

/** A hidden CSRF field for a form. */
/** The hidden CSRF field (middleware/csrf.ts), for the account pages' forms. */
export { csrfField };

/** `2026-11-21 21:05 UTC` and `2026-11-21`, or a dash: the one format of times and days for people, shared with the CLI. */
export { formatDate, formatTime } from '../../../src/display-time';
