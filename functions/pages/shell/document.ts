// The one HTML document every page of ours is rendered into: head, header, <main>, footer, and the CSP.
import type { Context } from 'hono';
import { html, raw } from 'hono/html';
import { HtmlEscapedCallbackPhase, resolveCallback } from 'hono/utils/html';
import { cacheableAnswer } from '../../middleware/page-cache';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { cspScriptHash } from '../../csp-hash';
import type { AppEnv } from '../../types';
import { siteFooter, siteHeader, type HeaderState } from './chrome';
import type { Html } from './html';
import { stylesheetPath } from './stylesheet';

export interface DocumentOptions extends HeaderState {
  /** The whole <title>. */
  title: string;
  /** Extra head elements (description, canonical, social tags, JSON-LD). */
  head?: Html;
  main: Html;
  status?: ContentfulStatusCode;
  /** Forms and reading pages use the narrow column. */
  narrow?: boolean;
  /** A bar under the header, as wide as the header whatever the column: the account area's navigation and Sign out. */
  subnav?: Html;
  /** One first-party inline script (fixed text, allowed by its hash); pages work without it. */
  script?: string;
  /** Origins a form may end up at besides ours (the OAuth consent form redirects to the app). */
  formActionOrigins?: readonly string[];
  /** The same for every anonymous visitor: answered through the page cache (functions/middleware/page-cache.ts). */
  cacheable?: boolean;
}

/**
 * Strict CSP for every page: the stylesheet from this origin and no inline style; at most the page's one
 * script by its hash; images from this origin (our /media/ copies) or data: (generated placeholders).
 */
export function pageCsp(script?: string, formActionOrigins: readonly string[] = []): string {
  const formAction = ["'self'", ...formActionOrigins].join(' ');
  return `default-src 'none';${script ? ` script-src ${cspScriptHash(script)};` : ''} style-src 'self'; img-src 'self' data:; form-action ${formAction}; base-uri 'none'; frame-ancestors 'none'`;
}

export function renderDocument(c: Context<AppEnv>, page: DocumentOptions): Response | Promise<Response> {
  c.header('Content-Security-Policy', pageCsp(page.script, page.formActionOrigins));
  const document = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${page.title}</title>
<link rel="stylesheet" href="${stylesheetPath()}">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="alternate" type="application/atom+xml" title="tooldir: new listings" href="/feed.xml">
${page.head ?? ''}</head>
<body>
${siteHeader(page)}
${page.subnav ? html`<div class="wrap subnav">${page.subnav}</div>` : ''}
<main id="main"${page.narrow ? html` class="narrow"` : ''}>
${page.main}
</main>
${siteFooter()}
${page.script ? html`<script>${raw(page.script)}</script>` : ''}
</body>
</html>`;
  if (!page.cacheable) return c.html(document, page.status);
  return resolveCallback(document, HtmlEscapedCallbackPhase.Stringify, false, {}).then((text) =>
    cacheableAnswer(c, text, 'text/html; charset=UTF-8'),
  );
}
