// What crawlers may read (docs/seo.md). Public: the directory, category and tool pages, our own /media copies,
// the badges, llms.txt and the sitemaps. Not for indexing: the account area, the editor's pages, checkout
// pages, the REST API and jobs (/api/), the OAuth and MCP endpoints that serve agents, not readers, the
// outbound links /go/ (redirects to other sites, counted as clicks: docs/stats.md) and the /stats/ opt-out pages.
// /.well-known stays open: its discovery documents are public by design and robots.txt never hides anything.

/** Path prefixes no crawler should fetch (robots.txt matches by prefix). */
export const DISALLOWED_PATHS = [
  '/account',
  '/admin',
  '/checkout',
  '/api/',
  '/oauth/',
  '/mcp',
  '/go/',
  '/stats/',
] as const;

/** robots.txt for `origin`, naming the sitemap by its absolute URL. */
export function robotsTxt(origin: string): string {
  return [
    'User-agent: *',
    'Allow: /',
    ...DISALLOWED_PATHS.map((path) => `Disallow: ${path}`),
    '',
    `Sitemap: ${origin}/sitemap.xml`,
    '',
  ].join('\n');
}
