// GET /v0.1/servers/{serverName}/versions and …/versions/{version} – one MCP server of the registry API (no key)
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { registryServerVersion, registryServerVersions } from '../../src/directory/registry';
import { describePolicy } from '../../src/rate-limits/describe';
import { rateLimit } from '../middleware/rate-limit';
import { cacheableAnswer } from '../middleware/page-cache';
import type { AppEnv } from '../types';
import { errorContent } from '../v1/error-responses';
import { publicErrors } from '../v1/tools/search-tools';
import { includeDeleted, serverName } from './query';
import { ServerListSchema, ServerResponseSchema } from './registry-schemas';

const versionsRoute = createRoute({
  method: 'get',
  path: '/v0.1/servers/{serverName}/versions',
  operationId: 'listRegistryServerVersions',
  tags: ['MCP Registry'],
  security: [],
  middleware: [rateLimit('public')] as const,
  summary: 'List the versions of an MCP server (registry API)',
  description:
    'Every version of one server, newest first: here always one, the version its server reports now. The name is ' +
    `URL-encoded (com.example%2Facme). No key needed; ${describePolicy('public')}.`,
  request: { params: z.object({ serverName }), query: z.object({ include_deleted: includeDeleted }) },
  responses: {
    200: { content: { 'application/json': { schema: ServerListSchema } }, description: 'The versions' },
    304: { description: 'Not modified' },
    400: errorContent('Invalid include_deleted (code invalid_request)'),
    404: errorContent('No server with this name (code not_found); a deleted one only with include_deleted=true'),
    ...publicErrors,
  },
});

const versionRoute = createRoute({
  method: 'get',
  path: '/v0.1/servers/{serverName}/versions/{version}',
  operationId: 'getRegistryServerVersion',
  tags: ['MCP Registry'],
  security: [],
  middleware: [rateLimit('public')] as const,
  summary: 'Get one version of an MCP server (registry API)',
  description: `One server at a version (URL-encoded) or at latest. No key needed; ${describePolicy('public')}.`,
  request: {
    params: z.object({
      serverName,
      version: z.string().max(255, { error: 'version is too long' }).openapi({ example: 'latest' }),
    }),
    query: z.object({ include_deleted: includeDeleted }),
  },
  responses: {
    200: { content: { 'application/json': { schema: ServerResponseSchema } }, description: 'The server' },
    304: { description: 'Not modified' },
    400: errorContent('Invalid include_deleted (code invalid_request)'),
    404: errorContent('No server with this name, or not at this version (code not_found)'),
    ...publicErrors,
  },
});

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(versionsRoute, async (c) => {
    const list = await registryServerVersions({
      deps: c.get('deps'),
      input: {
        name: c.req.valid('param').serverName,
        includeDeleted: c.req.valid('query').include_deleted === 'true',
      },
    });
    return cacheableAnswer(c, JSON.stringify(list), 'application/json');
  });
  app.openapi(versionRoute, async (c) => {
    const { serverName: name, version } = c.req.valid('param');
    const entry = await registryServerVersion({
      deps: c.get('deps'),
      input: { name, version, includeDeleted: c.req.valid('query').include_deleted === 'true' },
    });
    return cacheableAnswer(c, JSON.stringify(entry), 'application/json');
  });
}
