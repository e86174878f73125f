// GET /sitemap.xml, /sitemaps/pages.xml, /sitemaps/tools-{n}.xml – what search engines crawl (docs/seo.md)
import type { Context } from 'hono';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { ServiceError } from '../../src/errors';
import {
  readSitemapPages,
  readSitemapRoot,
  readSitemapTools,
  SITEMAP_MAX_URLS,
  type SitemapOptions,
} from '../../src/directory/sitemap';
import { sitemapIndexEntries, toolsChildBounds } from '../../src/directory/sitemap-children';
import { sitemapIndexXml, urlsetXml } from '../../src/directory/sitemap-xml';
import { errorResponse } from '../errors';
import { clientIp } from '../middleware/client-ip';
import { enforceRateLimit } from '../middleware/rate-limit';
import type { AppEnv } from '../types';

const xml = (c: Context<AppEnv>, body: string) =>
  c.body(body, 200, { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=3600' });

const notFound = (c: Context<AppEnv>) =>
  errorResponse(
    c,
    new ServiceError('not_found', 'No such sitemap. Start from /sitemap.xml; its index names every child sitemap.'),
  );

export function register(app: OpenAPIHono<AppEnv>, options: SitemapOptions = {}) {
  const maxUrls = options.maxUrls ?? SITEMAP_MAX_URLS;

  app.get('/sitemap.xml', async (c) => {
    await enforceRateLimit(c, 'public', clientIp(c));
    const deps = c.get('deps');
    const root = await readSitemapRoot(deps, maxUrls);
    return xml(
      c,
      root.kind === 'urlset' ? urlsetXml(root.urls) : sitemapIndexXml(sitemapIndexEntries(deps.origin, root)),
    );
  });

  app.get('/sitemaps/:file', async (c) => {
    const file = c.req.param('file');
    const deps = c.get('deps');
    if (file === 'pages.xml') {
      await enforceRateLimit(c, 'public', clientIp(c));
      return xml(c, urlsetXml(await readSitemapPages(deps, maxUrls)));
    }
    const bounds = toolsChildBounds(file, { from: c.req.query('from'), to: c.req.query('to') });
    if (!bounds) return notFound(c);
    await enforceRateLimit(c, 'public', clientIp(c));
    const urls = await readSitemapTools(deps, bounds, maxUrls);
    return urls.length ? xml(c, urlsetXml(urls)) : notFound(c);
  });
}
