// Generates openapi.json's text from the app's routes (@hono/zod-openapi's generator over every route's zod schemas).
// Node and tests run it on their first request for an origin; the Worker never does: the [build] command runs it
// once (functions/worker/openapi-template.ts) and the Worker reads the result from its static assets.
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../types';
import { describeApiLimits } from '../../../src/rate-limits/describe';
import { declareLimitHeaders } from './openapi-headers';

/** The document as JSON text, its servers and links naming `origin`. */
export function generateOpenApiJson(app: OpenAPIHono<AppEnv>, origin: string): string {
  return JSON.stringify(
    declareLimitHeaders(
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
    ),
  );
}

/**
 * An operation whose summary says it all (the operator API's) gets that summary as its description too, which
 * clients and linters expect, without a second copy of the text in the source.
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
