// GET /go/{slug} – the outbound link to a live tool's website: a redirect to its stored URL with ref=tooldir,
// counted as a click after the response (functions/middleware/count-listing-events.ts; docs/stats.md "Clicks").
import type { OpenAPIHono } from '@hono/zod-openapi';
import { findOutboundTarget } from '../../src/stats/outbound-link';
import { isSlug } from '../../src/pipeline/slug';
import type { AppEnv } from '../types';
import { notFoundPage } from './not-found';
import { answerSlugFate } from './slug-fate';
import { refusedPublicPage } from './public-limit';

export function register(app: OpenAPIHono<AppEnv>) {
  app.get('/go/:slug', async (c) => {
    // The limiter answers before the lookup: past it, a 429 page that runs no statement and counts no click.
    const refused = await refusedPublicPage(c, 'requests', 'outboundLinks');
    if (refused) return refused;
    const slug = c.req.param('slug');
    // Only the slug picks the target, and only among live tools: no parameter can turn this into an open redirect.
    const target = isSlug(slug) ? await findOutboundTarget(c.get('deps'), slug) : undefined;
    // A renamed tool's old slug: 301 to its current /go/ (counted there); a withdrawn listing: 410.
    if (!target) return (isSlug(slug) && (await answerSlugFate(c, slug, (to) => `/go/${to}`))) || notFoundPage(c);
    // Every click must reach us to be counted, and the link is no page of its own for search engines.
    c.header('Cache-Control', 'no-store');
    c.header('X-Robots-Tag', 'noindex, nofollow');
    return c.redirect(target, 302);
  });
}
