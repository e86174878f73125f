// GET /v0.1/servers – the MCP servers of listed tools, in the official MCP Registry's shape (no key; limited per IP)
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { DEFAULT_SERVERS_LIMIT, listRegistryServers, MAX_SERVERS_LIMIT } from '../../src/directory/registry';
import { describePolicy } from '../../src/rate-limits/describe';
import { rateLimit } from '../middleware/rate-limit';
import { cacheableAnswer } from '../middleware/page-cache';
import type { AppEnv } from '../types';
import { errorContent } from '../v1/error-responses';
import { publicErrors } from '../v1/tools/search-tools';
import { includeDeleted } from './query';
import { ServerListSchema } from './registry-schemas';

const limitMessage = `limit must be an integer from 1 to ${MAX_SERVERS_LIMIT}`;
/** RFC 3339 with a zone (Z or ±hh:mm), as the registry documents updated_since. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/i;
const sinceMessage = 'updated_since must be an RFC 3339 date-time, e.g. 2026-11-21T21:05:03Z';

const query = z.object({
  cursor: z
    .string()
    .max(400, { error: 'cursor is malformed' })
    .optional()
    .openapi({ description: 'metadata.nextCursor of the previous page (opaque), with the same filters' }),
  limit: z
    .string()
    .regex(/^\d{1,3}$/, { error: limitMessage })
    .transform(Number)
    .refine((n) => n >= 1 && n <= MAX_SERVERS_LIMIT, { error: limitMessage })
    .optional()
    .openapi({ type: 'integer', minimum: 1, maximum: MAX_SERVERS_LIMIT, default: DEFAULT_SERVERS_LIMIT }),
  search: z
    .string()
    .max(200, { error: 'search must be at most 200 characters' })
    .refine((v) => !/\p{Cc}/u.test(v), { error: 'search must not contain control characters' })
    .optional()
    .openapi({ description: 'Only servers whose name contains this text (case-insensitive)', example: 'acme' }),
  updated_since: z
    .string()
    .refine((v) => RFC3339.test(v) && !Number.isNaN(Date.parse(v)), { error: sinceMessage })
    .optional()
    .openapi({
      format: 'date-time',
      description:
        'Only entries updated after this time (RFC 3339); deleted entries are then included, so a mirror sees removals',
      example: '2026-11-21T21:05:03Z',
    }),
  version: z
    .string()
    .max(255, { error: 'version must be at most 255 characters' })
    .optional()
    .openapi({ description: 'latest (every entry has one version), or an exact version', example: 'latest' }),
  include_deleted: includeDeleted,
});

const route = createRoute({
  method: 'get',
  path: '/v0.1/servers',
  operationId: 'listRegistryServers',
  tags: ['MCP Registry'],
  security: [],
  middleware: [rateLimit('public')] as const,
  summary: 'List MCP servers (registry API)',
  description:
    'The remote MCP servers of listed tools in the official MCP Registry’s format (GET /v0.1/servers): each entry a ' +
    'server.json with remotes, the registry’s _meta (status, publishedAt, updatedAt, isLatest) and our listing under ' +
    'our own _meta key. Page with cursor (metadata.nextCursor); poll with updated_since to see additions, changes and ' +
    `removals (status deleted). No key needed; ${describePolicy('public')}. docs/registry-api.md says what a mirror reads.`,
  request: { query },
  responses: {
    200: {
      content: { 'application/json': { schema: ServerListSchema } },
      description: 'One page of entries, by a stable order (with an ETag; Cache-Control allows keeping it a minute)',
    },
    304: { description: 'Not modified: the page named by If-None-Match is still the answer' },
    400: errorContent(
      'Invalid cursor, limit, search, updated_since, version or include_deleted (code invalid_request)',
    ),
    ...publicErrors,
  },
});

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const q = c.req.valid('query');
    const list = await listRegistryServers({
      deps: c.get('deps'),
      input: {
        cursor: q.cursor,
        limit: q.limit,
        search: q.search || undefined,
        updatedSince: q.updated_since ? new Date(q.updated_since) : undefined,
        version: q.version || undefined,
        includeDeleted: q.include_deleted === 'true',
      },
    });
    return cacheableAnswer(c, JSON.stringify(list), 'application/json');
  });
}
