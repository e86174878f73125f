// GET /feed.xml – the newest listings as an Atom feed (docs/change-feed.md "Atom"); every page's <head> links it
import type { OpenAPIHono } from '@hono/zod-openapi';
import { atomFeed } from '../../src/directory/atom-feed';
import { clientIp } from '../middleware/client-ip';
import { cacheableAnswer } from '../middleware/page-cache';
import { enforceRateLimit } from '../middleware/rate-limit';
import type { AppEnv } from '../types';

export const ATOM_CONTENT_TYPE = 'application/atom+xml; charset=utf-8';

export function register(app: OpenAPIHono<AppEnv>) {
  app.get('/feed.xml', async (c) => {
    // Counted like the sitemap; a feed the page cache answers never gets here (functions/middleware/page-cache.ts).
    await enforceRateLimit(c, 'public', clientIp(c));
    return cacheableAnswer(c, await atomFeed(c.get('deps')), ATOM_CONTENT_TYPE);
  });
}
