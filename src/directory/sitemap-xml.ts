// The sitemaps.org 0.9 wire format (docs/seo.md): a <urlset> of pages or a <sitemapindex> of child sitemaps.
// Every value is XML-escaped here, once, so no slug or origin can add an element or break the document.

const NAMESPACE = 'http://www.sitemaps.org/schemas/sitemap/0.9';

/** One page (or one child sitemap) and when it last changed (W3C datetime; omitted when unknown). */
export interface SitemapEntry {
  loc: string;
  lastmod: string | null;
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/**
 * Text for an XML element: the five markup characters as entities, and characters XML 1.0 cannot carry at all
 * (C0 controls other than tab/newline/return, lone surrogates, U+FFFE/FFFF) dropped so the document stays well-formed.
 */
export function escapeXml(text: string): string {
  return text
    .replace(
      /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
      '',
    )
    .replace(/[&<>"']/g, (ch) => XML_ESCAPES[ch]!);
}

const entry = (tag: 'url' | 'sitemap', e: SitemapEntry) =>
  `<${tag}><loc>${escapeXml(e.loc)}</loc>${e.lastmod ? `<lastmod>${escapeXml(e.lastmod)}</lastmod>` : ''}</${tag}>\n`;

/** A sitemap file: at most the configured number of URLs (the protocol allows 50,000 and 50 MB). */
export function urlsetXml(entries: readonly SitemapEntry[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${NAMESPACE}">\n${entries.map((e) => entry('url', e)).join('')}</urlset>\n`;
}

/** A sitemap index file: the child sitemaps' absolute URLs. */
export function sitemapIndexXml(entries: readonly SitemapEntry[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="${NAMESPACE}">\n${entries.map((e) => entry('sitemap', e)).join('')}</sitemapindex>\n`;
}
