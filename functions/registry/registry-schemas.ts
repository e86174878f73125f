// The registry API's shapes in openapi.json (docs/registry-api.md): the official MCP Registry's ServerResponse and
// ServerList, as far as our entries use them. The answers are validated against the official server.schema.json in
// test/functions/registry/registry-api.test.ts; these declarations document them.
import { z } from '@hono/zod-openapi';
import { isoTimestampSchema } from '../../src/timestamp-schemas';
import { OFFICIAL_META } from '../../src/directory/registry';
import { component } from '../v1/schemas';

const serverDetail = z.object({
  $schema: z.string().describe('The server.json schema the entry follows'),
  name: z
    .string()
    .describe(
      'Reverse-DNS name: the owner’s verified domain reversed (com.example/{slug}), else our own namespace (dev.tooldir/{slug})',
    ),
  title: z.string().describe('The listing’s name (at most 100 characters)'),
  description: z.string().describe('The listing’s description, shortened to at most 100 characters'),
  version: z
    .string()
    .describe('The version the server reports (serverInfo.version) when usable, else 0.0.0; one version per entry'),
  websiteUrl: z.string().describe('The tool’s own website'),
  remotes: z
    .array(
      z.object({
        type: z.enum(['streamable-http', 'sse']).describe('The transport the probe reached it by'),
        url: z.string().describe('The remote MCP endpoint'),
      }),
    )
    .describe('The listing’s remote MCP endpoint'),
});

const officialMeta = z.object({
  status: z
    .enum(['active', 'deleted'])
    .describe(
      'deleted: withdrawn, taken down, hidden by the re-check or no longer naming an MCP server; mirrors remove it',
    ),
  publishedAt: isoTimestampSchema('When the listing went live'),
  updatedAt: isoTimestampSchema('When the entry last changed (what updated_since compares)'),
  isLatest: z.boolean().describe('Always true: an entry has one version'),
});

export const ServerResponseSchema = component(
  z.object({
    server: serverDetail,
    _meta: z
      .object({ [OFFICIAL_META]: officialMeta })
      .catchall(z.unknown())
      .describe(
        'The registry’s metadata under io.modelcontextprotocol.registry/official, and our listing (slug, page_url, categories, health, mcp_status, tools_count) under our own reverse-DNS key',
      ),
  }),
  'RegistryServerResponse',
);

export const ServerListSchema = component(
  z.object({
    servers: z.array(ServerResponseSchema),
    metadata: z.object({
      nextCursor: z.string().optional().describe('Pass as cursor for the next page; absent on the last page'),
      count: z.number().int().describe('Entries on this page'),
    }),
  }),
  'RegistryServerList',
);
