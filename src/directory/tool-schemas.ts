import { z } from 'zod';
import { isoTimestampSchema } from '../timestamp-schemas';
import { toolCategorySchema } from '../categories/category-schemas';

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

export const searchPageSchema = z.object({
  tools: z.array(toolSummarySchema).describe('Best match first; the newest tools first when there is no query'),
  next_cursor: z.string().nullable().describe('Pass as cursor to get the next page; null on the last page'),
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
});
