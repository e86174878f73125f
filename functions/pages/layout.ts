import type { Context } from 'hono';
import { html, raw } from 'hono/html';
import { HtmlEscapedCallbackPhase, resolveCallback, type HtmlEscapedString } from 'hono/utils/html';
import { cacheableAnswer } from '../middleware/page-cache';
import { cspScriptHash, cspStyleHash } from '../csp-hash';
import { jsonLdScripts } from './json-ld';
import type { AppEnv } from '../types';

export type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

export interface PageOptions {
  title: string;
  description: string;
  body: () => Html;
  status?: 200 | 400 | 401 | 403 | 404 | 429;
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
  /** The page is the same for every anonymous visitor: sent through the page cache (middleware/page-cache.ts). */
  cacheable?: boolean;
}

const STYLE = `
body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1d1d1f;background:#fafafa}
header,main,footer{max-width:52rem;margin:0 auto;padding:1rem}
header a{color:inherit;text-decoration:none;font-weight:700}
ul.tools{list-style:none;padding:0}ul.tools li{background:#fff;border:1px solid #e5e5e5;border-radius:8px;padding:.75rem 1rem;margin:.5rem 0}
.badge{display:inline-block;font-size:.75rem;border-radius:4px;padding:0 .4rem;margin-left:.4rem;background:#ffe9a8}
.badge.sponsor{background:#d6ecff}.muted{color:#666}img.shot{max-width:100%;border-radius:8px}img.icon{width:20px;height:20px;vertical-align:middle;margin-right:.4rem;border-radius:4px}img.avatar{width:48px;height:48px;vertical-align:middle;margin-right:.6rem;border-radius:8px}
form.search input{padding:.4rem;width:60%;max-width:100%}textarea.embed{width:100%;font:12px/1.4 ui-monospace,monospace}section.sponsored{border:2px solid #d6ecff;border-radius:8px;padding:.25rem 1rem}
ul.cards{list-style:none;padding:0;margin:1rem 0;display:grid;gap:1rem;grid-template-columns:repeat(auto-fill,minmax(15rem,1fr))}
.card{background:#fff;border:1px solid #e5e5e5;border-radius:8px;overflow:hidden;display:flex;flex-direction:column;min-width:0}
.card img{display:block;width:100%;height:auto;aspect-ratio:40/21;object-fit:cover;background:#f3f4f6}.card img.logo{object-fit:scale-down}
.card div{padding:.6rem .8rem .8rem}.card h3{margin:0;font-size:1rem;overflow-wrap:anywhere}.card h3 a{color:inherit}
.card p{margin:.3rem 0;color:#555;font-size:.9rem;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
ul.chips{list-style:none;padding:0;margin:.3rem 0 0;display:flex;flex-wrap:wrap;gap:.3rem}ul.chips a{display:inline-block;font-size:.75rem;padding:0 .5rem;border-radius:999px;background:#eef2ff;color:#3730a3;text-decoration:none;overflow-wrap:anywhere}
ul.chips.nav a{font-size:.85rem;padding:.1rem .6rem}nav.pager{display:flex;justify-content:space-between;gap:1rem;margin:1rem 0}
main{overflow-wrap:anywhere}
`;

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

/** The one stylesheet, allowed by its hash: a per-response nonce would make every page unique, so no page could be cached. */
let styleSource: string | undefined;

/**
 * Renders a public page: every interpolated value is escaped by hono/html, and a strict CSP allows no script
 * at all (a page's one fixed script by its hash), only the page's own stylesheet (by its hash), images from this
 * origin (our own /media/ copies) or data: URIs (the generated placeholders), and forms to this origin. No image
 * is ever loaded from a tool's server. The same data renders the same bytes (docs/pages.md "Caching").
 */
export function renderPage(c: Context<AppEnv>, page: PageOptions): Response | Promise<Response> {
  c.header(
    'Content-Security-Policy',
    `default-src 'none';${page.script ? ` script-src ${cspScriptHash(page.script)};` : ''} style-src ${(styleSource ??= cspStyleHash(STYLE))}; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
  );
  const image = safeUrl(page.image);
  const canonical = page.noindex ? undefined : safeUrl(page.canonical ?? `${c.get('deps').origin}${c.req.path}`);
  const document = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${page.noindex ? html`<meta name="robots" content="noindex">` : ''}
<title>${page.title}</title>
<meta name="description" content="${page.description}">
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
${page.jsonLd?.length ? jsonLdScripts(page.jsonLd) : ''}<style>${raw(STYLE)}</style>
</head>
<body>
<header><a href="/">tooldir</a> <span class="muted">– a directory of AI tools</span></header>
<main>${page.body()}</main>
<footer class="muted">Submit your tool through the <a href="/api/v1/docs">API</a> or the MCP server · <a href="/llms.txt">llms.txt</a></footer>
${page.script ? html`<script>${raw(page.script)}</script>` : ''}
</body>
</html>`;
  if (!page.cacheable) return c.html(document, page.status);
  return resolveCallback(document, HtmlEscapedCallbackPhase.Stringify, false, {}).then((text) => cacheableAnswer(c, text, 'text/html; charset=UTF-8'));
}
