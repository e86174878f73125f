import type { Context } from 'hono';
import { html } from 'hono/html';
import { jsonLdScripts } from './json-ld';
import type { AppEnv } from '../types';
import { readSessionCookie } from './account/cookies';
import { renderDocument } from './shell/document';
import type { Html } from './shell/html';
import type { Section } from './shell/chrome';

export type { Html } from './shell/html';

export interface PageOptions {
  title: string;
  description: string;
  body: () => Html;
  status?: 200 | 400 | 401 | 403 | 404 | 409 | 410 | 413 | 429;
  /** The page's one URL for search engines; by default this origin + the request's path, without its query. */
  canonical?: string;
  /** An absolute URL of the page's share image (Open Graph and Twitter card). */
  image?: string | null;
  /** A page that is no address of its own (the 404 page): `noindex`, and no canonical or og:url. */
  noindex?: boolean;
  /** Open Graph type: `website` unless the page is about one thing. */
  ogType?: 'website' | 'article';
  /** schema.org objects for the page (docs/seo.md); each becomes a JSON-LD block in the head. */
  jsonLd?: readonly object[];
  /** `<link rel="prev|next">` of a paginated list (docs/pages.md); absolute URLs. */
  pageLinks?: { prev?: string | null; next?: string | null };
  /** One first-party inline script (fixed text, allowed by its hash); pages without it run no script at all. */
  script?: string;
  /** The search box's text on the search results page. */
  query?: string;
  /** The header link of this page (aria-current). */
  current?: Section;
  /** Forms and reading pages use the narrow column. */
  narrow?: boolean;
  /** The page is the same for every anonymous visitor: sent through the page cache (middleware/page-cache.ts). */
  cacheable?: boolean;
}

/** Only http(s) URLs may become a link or an image source; anything else renders as nothing. */
export function safeUrl(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Renders a public page: every interpolated value is escaped by hono/html; the shell (shell/document.ts)
 * adds the header, the footer and a CSP that allows no script but the page's own, by its hash.
 *
 * The header says "Account" when the request carries a session cookie (its presence only: no lookup, so a
 * public page stays one statement). Such a response is personal: a page the route made public-cacheable is
 * then private, and every public page varies on Cookie so a shared cache never mixes the two.
 */
export function renderPage(c: Context<AppEnv>, page: PageOptions): Response | Promise<Response> {
  const signedIn = readSessionCookie(c) !== undefined;
  c.header('Vary', 'Cookie', { append: true });
  // c.res is read only for a signed-in request: reading it before the response exists makes Hono rebuild the
  // response around a body stream (docs/bench.md). A cacheable page's Cache-Control is set by cacheableAnswer.
  if (signedIn && !page.cacheable && /\bpublic\b/.test(c.res.headers.get('Cache-Control') ?? ''))
    c.header('Cache-Control', 'private, no-cache');
  const image = safeUrl(page.image);
  const canonical = page.noindex ? undefined : safeUrl(page.canonical ?? `${c.get('deps').origin}${c.req.path}`);
  const head = html`<meta name="description" content="${page.description}">
${page.noindex ? html`<meta name="robots" content="noindex">` : ''}
${canonical ? html`<link rel="canonical" href="${canonical}">` : ''}
${page.pageLinks?.prev ? html`<link rel="prev" href="${page.pageLinks.prev}">` : ''}${page.pageLinks?.next ? html`<link rel="next" href="${page.pageLinks.next}">` : ''}
<meta property="og:site_name" content="tooldir">
<meta property="og:type" content="${page.ogType ?? 'website'}">
<meta property="og:title" content="${page.title}">
<meta property="og:description" content="${page.description}">
${canonical ? html`<meta property="og:url" content="${canonical}">` : ''}
${image ? html`<meta property="og:image" content="${image}">` : ''}
<meta name="twitter:card" content="${image ? 'summary_large_image' : 'summary'}">
<meta name="twitter:title" content="${page.title}">
<meta name="twitter:description" content="${page.description}">
${image ? html`<meta name="twitter:image" content="${image}">` : ''}
${page.jsonLd?.length ? jsonLdScripts(page.jsonLd) : ''}`;
  return renderDocument(c, {
    title: page.title,
    head,
    main: page.body(),
    status: page.status,
    script: page.script,
    signedIn,
    query: page.query,
    current: page.current,
    narrow: page.narrow,
    cacheable: page.cacheable,
  });
}
