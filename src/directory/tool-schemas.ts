import { z } from 'zod';
import { isoTimestampSchema } from '../timestamp-schemas';
import { toolCategorySchema } from '../categories/category-schemas';
import { verifiedMarkSchema } from '../domains/verified-mark';
import { healthSchema } from '../health-schema';
import { mcpStatuses, mcpTransports } from '../catalog/mcp-states';

// The output shapes of the directory as zod schemas: REST documents them in openapi.json and the MCP tools
// declare them as outputSchema, so both surfaces promise exactly what tool-record.ts produces.

export const toolSummarySchema = z.object({
  slug: z.string().describe('Public slug; pass it to get_tool / GET /api/v1/tools/{slug}'),
  name: z.string(),
  url: z.string().describe("The tool's own website"),
  description: z.string().nullable().describe('Crawled description, shortened to at most 160 characters'),
  is_feature: z.boolean().describe('Featured listing (a flag only; it does not change the ranking)'),
  is_sponsor: z.boolean().describe('Sponsored listing (a flag only; it does not change the ranking)'),
  live_url: z.string().nullable().describe("The tool's public page in this directory"),
  categories: z.array(toolCategorySchema).describe('The categories the tool is in (at most 3), by name'),
  ...verifiedMarkSchema,
});

export const searchSuggestionSchema = z
  .object({
    query: z.string().describe('The corrected query whose results these are'),
    corrected_from: z.string().describe('The query as it was asked'),
  })
  .describe(
    'Set when the words found nothing and a correction of them did (typos): tools are the corrected query’s. Null otherwise',
  );

export const offeredCategorySchema = z.object({
  slug: z.string().describe('Pass as category to search within it'),
  name: z.string(),
  tool_count: z.number().int().describe('Live tools in the category'),
});

export const searchPageSchema = z.object({
  tools: z.array(toolSummarySchema).describe('Best match first; the newest tools first when there is no query'),
  next_cursor: z.string().nullable().describe('Pass as cursor to get the next page; null on the last page'),
  suggestion: searchSuggestionSchema.nullable(),
  closest_categories: z
    .array(offeredCategorySchema)
    .describe('When a first page found nothing: the categories closest to the words, to browse instead (else empty)'),
  newest_tools: z
    .array(toolSummarySchema)
    .describe(
      'When a first page found nothing: the newest tools, of the category searched when it has any (else empty)',
    ),
});

/** One tool the listing's MCP server offers (src/directory/mcp-record.ts). */
export const mcpToolSchema = z.object({
  name: z.string().describe('The tool’s name, as an MCP client calls it'),
  title: z.string().nullable().describe('Its display title, when the server gave one'),
  description: z.string().nullable(),
});

export const toolMcpSchema = z.object({
  url: z.string().describe('The remote MCP endpoint (streamable HTTP or SSE) to add to an MCP client'),
  status: z
    .enum(mcpStatuses)
    .describe(
      'reachable: the last probe listed its tools; unreachable: it did not answer as an MCP server; auth_required: it asks for sign-in (OAuth); unchecked: not probed yet',
    ),
  transport: z
    .enum(mcpTransports)
    .nullable()
    .describe('How the probe reached it: streamable_http or sse (the older HTTP+SSE transport); null before it did'),
  tools: z
    .array(mcpToolSchema)
    .describe('The tools the last probe listed, in the server’s order; empty unless reachable'),
  checked_at: isoTimestampSchema('When the server was last probed, null before the first probe').nullable(),
  tools_seen_at: isoTimestampSchema('When a probe last listed the tools, null before one did').nullable(),
});

export const toolDetailSchema = z.object({
  site_id: z.string().describe('Id of the submission behind this listing'),
  slug: z.string(),
  name: z.string(),
  url: z.string().describe("The tool's own website"),
  description: z.string().nullable().describe('Full crawled description'),
  image: z
    .string()
    .nullable()
    .describe(
      'The tool’s social image (og:image) as this directory’s own copy: {site_origin}/media/{sha256}.{ext}, never the tool’s server. Null when the site had none that could be kept',
    ),
  icon: z
    .string()
    .nullable()
    .describe(
      'The tool’s icon as this directory’s own copy: {site_origin}/media/{sha256}.{ext}. Null when none could be kept',
    ),
  is_feature: z.boolean(),
  is_sponsor: z.boolean(),
  live_url: z.string().nullable().describe("The tool's public page in this directory"),
  published_at: isoTimestampSchema('When the tool went live').nullable(),
  categories: z.array(toolCategorySchema).describe('The categories the tool is in (at most 3), by name'),
  ...verifiedMarkSchema,
  health: healthSchema,
  mcp: toolMcpSchema
    .nullable()
    .describe('The listing’s remote MCP server and what the last probe found; null when the listing names none'),
});
