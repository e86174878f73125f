// GET /api/v1/openapi.json – the OpenAPI 3.1 document (the reference page /api/v1/docs renders the same object: docs-page.ts)
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../types';
import { rateLimit } from '../../middleware/rate-limit';
import { openApiText } from './openapi-text';

export const OPENAPI_PATH = '/api/v1/openapi.json';

export function register(app: OpenAPIHono<AppEnv>) {
  app.openAPIRegistry.registerComponent('securitySchemes', 'apiKey', {
    type: 'http',
    scheme: 'bearer',
    description: 'An API key (tdk_...) from the account area: Authorization: Bearer <key>',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'operatorToken', {
    type: 'http',
    scheme: 'bearer',
    description: 'The operator token (ADMIN_TOKEN)',
  });
  // Unauthenticated endpoints share the per-IP `public` policy.
  app.use(OPENAPI_PATH, rateLimit('public'));
  app.get(OPENAPI_PATH, async (c) => c.json(await openApiDocument(app, c.get('deps').origin, c.env)));
}

const documents = new WeakMap<object, Map<string, Promise<object>>>();
/** Origins kept per app: one with SITE_ORIGIN; in local mode each loopback name a browser used (src/origin.ts). */
const ORIGINS_KEPT = 8;

/**
 * The document, built once per app and origin (so once per process or isolate: routes do not change after start,
 * and the origin is SITE_ORIGIN outside local mode) and shared by openapi.json and the reference page, so both
 * say the same. Its servers and links name the request's own origin, which in local mode is localhost or
 * 127.0.0.1 as the browser asked (src/origin.ts). It is the object its JSON text says (openapi-text.ts: generated
 * on Node, read from the static assets on Workers), so every platform renders the same. Callers read it, never
 * change it. `bindings`: the Worker's (its static assets), absent on Node.
 */
export function openApiDocument(app: OpenAPIHono<AppEnv>, origin: string, bindings?: unknown): Promise<object> {
  let byOrigin = documents.get(app);
  if (!byOrigin) documents.set(app, (byOrigin = new Map()));
  let document = byOrigin.get(origin);
  if (!document) {
    const kept = byOrigin;
    document = openApiText(app, origin, bindings).then((text) => JSON.parse(text) as object);
    // A failed read (a Worker's asset) is not kept: the next request tries again.
    document.catch(() => {
      if (kept.get(origin) === document) kept.delete(origin);
    });
    // A bound on what a stream of loopback names could make us keep; the oldest is built again if asked for.
    if (byOrigin.size >= ORIGINS_KEPT) byOrigin.delete(byOrigin.keys().next().value!);
    byOrigin.set(origin, document);
  }
  return document;
}
