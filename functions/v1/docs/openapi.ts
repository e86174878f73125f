// GET /api/v1/openapi.json – the OpenAPI 3.1 document (the reference page /api/v1/docs renders the same object: docs-page.ts)
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../types';
import { rateLimit } from '../../middleware/rate-limit';
import { describeApiLimits } from '../../../src/rate-limits/describe';
import { declareLimitHeaders } from './openapi-headers';

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
  app.get(OPENAPI_PATH, (c) => c.json(openApiDocument(app, c.get('deps').origin)));
}

const documents = new WeakMap<object, Map<string, object>>();
/** Origins kept per app: one with SITE_ORIGIN; in local mode each loopback name a browser used (src/origin.ts). */
const ORIGINS_KEPT = 8;

/**
 * The document, built once per app and origin (so once per process or isolate: routes do not change after start,
 * and the origin is SITE_ORIGIN outside local mode) and shared by openapi.json and the reference page, so both
 * say the same. Its servers and links name the request's own origin, which in local mode is localhost or
 * 127.0.0.1 as the browser asked (src/origin.ts). Callers read it, never change it.
 */
export function openApiDocument(app: OpenAPIHono<AppEnv>, origin: string): object {
  let byOrigin = documents.get(app);
  if (!byOrigin) documents.set(app, (byOrigin = new Map()));
  let document = byOrigin.get(origin);
  if (!document) {
    document = declareLimitHeaders(
      summariesAsDescriptions(
        app.getOpenAPI31Document({
          openapi: '3.1.0',
          info: {
            title: 'tooldir – AI Tool Directory API',
            version: '1.0.0',
            description:
              'Submit AI tools to the directory and track your submissions. Every error body is ' +
              '`{"error":{"code","message"}}`. ' +
              `${describeApiLimits()} RateLimit-* headers on every limited response; Retry-After on 429. ` +
              "Every timestamp is ISO 8601 in UTC with milliseconds, except a site record's submitted_at (YYYY-MM-DD HH:MM:SS+00), " +
              'whose format the reference fixes.',
            // Not an open-source release (package.json is private, no LICENSE): the terms are the operator's, and the
            // service's home page is where they are published. Decided for the linters' info-license rules; revisit
            // with a real terms page.
            license: { name: 'Proprietary: all rights reserved by the operator of this service', url: `${origin}/` },
            contact: { name: 'The operator of this service', url: `${origin}/` },
          },
          servers: [{ url: origin, description: 'This server' }],
          tags: TAGS,
        }),
      ),
    );
    // A bound on what a stream of loopback names could make us keep; the oldest is built again if asked for.
    if (byOrigin.size >= ORIGINS_KEPT) byOrigin.delete(byOrigin.keys().next().value!);
    byOrigin.set(origin, document);
  }
  return document;
}

/**
 * An operation whose summary says it all (the operator API's) gets that summary as its description too, which
 * clients and linters expect, without a second copy of the text in the Worker bundle.
 */
function summariesAsDescriptions<T>(document: T): T {
  for (const operations of Object.values(
    (document as { paths?: Record<string, Record<string, { summary?: string; description?: string }>> }).paths ?? {},
  )) {
    for (const operation of Object.values(operations)) operation.description ||= operation.summary;
  }
  return document;
}

/** Every tag an operation uses, described once (linters require tags to be declared). */
const TAGS = [
  { name: 'Submissions', description: 'Your submissions (API key)' },
  { name: 'Directory', description: 'The public directory (no key)' },
  {
    name: 'MCP Registry',
    description:
      'The MCP servers of listed tools in the official MCP Registry’s read API and shapes, for MCP clients and mirrors (no key; docs/registry-api.md)',
  },
  { name: 'Webhooks', description: 'Status changes sent to your endpoints (API key)' },
  { name: 'Domains', description: 'Domains you prove you control: DNS, HTTP or e-mail (API key)' },
  { name: 'Claims', description: 'Taking over the listing of a URL on your verified domain (API key)' },
  { name: 'Membership', description: 'Memberships (API key)' },
  { name: 'Operator', description: 'The operator API (ADMIN_TOKEN)' },
];
