// GET /assets/site.{hash}.css, /favicon.svg, /favicon.ico – the stylesheet and the icon every page links to
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../types';
import { IMMUTABLE_CACHE } from '../../v1/reference-ui';
import { STYLESHEET, stylesheetPath } from './stylesheet';

/** The directory's mark: a rounded square with a "t", in the accent colour; legible at 16 px. */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#4338ca"/><path d="M13 6h5v5h5v4.5h-5v7c0 1.4.7 2 2 2h3V29h-4c-4.3 0-6-2-6-6v-7.5h-3V11h3z" fill="#fff"/></svg>`;

/** An icon may change with a release but keeps its address (browsers ask for it by name): a day, then revalidate. */
const ICON_CACHE = 'public, max-age=86400';

export function register(app: OpenAPIHono<AppEnv>) {
  app.get('/assets/:file{site\\.[0-9a-f]{16}\\.css}', (c) => {
    // Only the current hash exists: an old page asking for an old one gets the 404 page, not stale rules.
    if (c.req.path !== stylesheetPath()) return c.notFound();
    return c.body(STYLESHEET, 200, { 'Content-Type': 'text/css; charset=utf-8', 'Cache-Control': IMMUTABLE_CACHE });
  });
  app.get('/favicon.svg', (c) =>
    c.body(FAVICON_SVG, 200, { 'Content-Type': 'image/svg+xml', 'Cache-Control': ICON_CACHE }),
  );
  // Browsers and crawlers that ignore <link rel="icon"> ask for /favicon.ico; every current one renders SVG.
  app.get('/favicon.ico', (c) => c.redirect('/favicon.svg', 301));
}
