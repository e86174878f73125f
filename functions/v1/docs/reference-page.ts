// GET /api/v1/docs – the API reference: our own page, rendered from the very document openapi.json serves, in the
// site's shell; it works without JavaScript. Scalar's interactive explorer lives at /api/v1/docs/explorer.
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../types';
import { rateLimit } from '../../middleware/rate-limit';
import type { ApiDocument } from '../../pages/api-reference/openapi-model';
import { referenceView } from '../../pages/api-reference/reference-view';
import { renderPage, type Html } from '../../pages/layout';
import { COPY_SCRIPT } from '../../pages/shell/copy-button';
import { openApiDocument } from './openapi';

export const DOCS_PATH = '/api/v1/docs';

/**
 * The page's content (some 130 KB), rendered on the first request for each document, so once per process or isolate
 * and origin (openApiDocument keeps one document per origin); a request only wraps it in the shell. Kept beside the
 * document it was rendered from, so it goes when the document goes.
 */
const views = new WeakMap<object, Html>();

export function register(app: OpenAPIHono<AppEnv>) {
  // Unauthenticated pages share the per-IP `public` policy.
  app.use(DOCS_PATH, rateLimit('public'));
  app.get(DOCS_PATH, async (c) => {
    const doc = await openApiDocument(app, c.get('deps').origin, c.env);
    let view = views.get(doc);
    if (!view) views.set(doc, (view = referenceView(doc as ApiDocument)));
    // Changes only with a release; renderPage makes it private when the request carries a session.
    c.header('Cache-Control', 'public, max-age=300');
    return renderPage(c, {
      title: 'API reference – tooldir',
      description:
        'Every endpoint of the tooldir REST API: authentication, parameters, request and response fields, limits and curl examples.',
      body: () => view,
      script: COPY_SCRIPT,
    });
  });
}
