import { z } from 'zod';

// Output shapes of categories: openapi.json documents them and the MCP list_categories tool declares them,
// so both promise exactly what categories.ts returns.

export const categorySchema = z.object({
  slug: z
    .string()
    .describe('Stable key: pass it as category to search_tools / GET /api/v1/tools, or in categories on submit'),
  name: z.string().describe('Display name'),
  description: z.string().nullable().describe('One line on what belongs in the category; null when none'),
});

export const categoryWithCountSchema = categorySchema.extend({
  tool_count: z.number().int().describe('Live tools in the category'),
});

export const categoryListSchema = z.object({
  categories: z.array(categoryWithCountSchema).describe('Every category, by name'),
});

/** A category as a tool read carries it. */
export const toolCategorySchema = z.object({ slug: z.string(), name: z.string() });
