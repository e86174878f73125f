import { z } from 'zod';
import { isoTimestampSchema } from '../timestamp-schemas';
import { toolCategorySchema } from '../categories/category-schemas';
import { healthStates } from '../catalog/health-states';

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
});

export const searchSuggestionSchema = z
  .object({
    query: z.string().describe('The corrected query whose results these are'),
    corrected_from: z.string().describe('The query as it was asked'),
  })
  .describe('Set when the words found nothing and a correction of them did (typos): tools are the corrected query’s. Null otherwise');

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
    .describe('When a first page found nothing: the newest tools, of the category searched when it has any (else empty)'),
});

/** What the last daily re-check of the tool's website found (docs/health.md). */
export const healthSchema = z
  .object({
    state: z.enum(healthStates).describe('ok: answered; failing: did not answer; moved: leads to another domain; unchecked: not checked yet, or robots.txt asks us not to'),
    last_checked_at: z.string().nullable().describe('When the site was last checked (ISO 8601), null before the first check'),
    last_ok_at: z.string().nullable().describe('When it last answered'),
    failing_since: z.string().nullable().describe('Failing or moved: the first check of this run that did not pass'),
    reason: z.string().nullable().describe('In words: no answer, TLS error, HTTP 503, not found, DNS gone, leads to another domain, …; null when ok'),
    moved_to: z.string().nullable().describe('Moved: the registrable domain the site now leads to'),
  })
  .describe("The health of the tool's website, re-checked about once a day");

export const toolDetailSchema = z.object({
  site_id: z.string().describe('Id of the submission behind this listing'),
  slug: z.string(),
  name: z.string(),
  url: z.string().describe("The tool's own website"),
  description: z.string().nullable().describe('Full crawled description'),
  image: z
    .string()
    .nullable()
    .describe('The tool’s social image (og:image) as this directory’s own copy: {site_origin}/media/{sha256}.{ext}, never the tool’s server. Null when the site had none that could be kept'),
  icon: z
    .string()
    .nullable()
    .describe('The tool’s icon as this directory’s own copy: {site_origin}/media/{sha256}.{ext}. Null when none could be kept'),
  is_feature: z.boolean(),
  is_sponsor: z.boolean(),
  live_url: z.string().nullable().describe("The tool's public page in this directory"),
  published_at: isoTimestampSchema('When the tool went live').nullable(),
  categories: z.array(toolCategorySchema).describe('The categories the tool is in (at most 3), by name'),
  health: healthSchema,
});
