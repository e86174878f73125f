import { z } from 'zod';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { invalidInput, ServiceError } from '../errors';
import { toToolCard, toToolSummary, type ToolCard, type ToolRow, type ToolSummary } from './tool-record';
import { MAX_QUERY_LENGTH, normalizeQuery } from './search-terms';
import { decodeCursor, encodeCursor, type SearchMode, type SearchTier } from './search-cursor';
import { categoryFilter, newestStatement, rankedStatement } from './search-statements';
import { categorySlugSchema } from '../categories/category-rules';
import { unknownCategories } from '../categories/categories';

export const MAX_PAGE_SIZE = 50;
export const DEFAULT_PAGE_SIZE = 20;

/** Search input as every surface passes it (REST converts its query strings first). */
export const searchInputSchema = z.object({
  query: z
    .string({ error: 'query must be a string' })
    .max(MAX_QUERY_LENGTH, { error: `query must be at most ${MAX_QUERY_LENGTH} characters` })
    .optional(),
  limit: z
    .number({ error: `limit must be an integer from 1 to ${MAX_PAGE_SIZE}` })
    .int({ error: `limit must be an integer from 1 to ${MAX_PAGE_SIZE}` })
    .min(1, { error: `limit must be an integer from 1 to ${MAX_PAGE_SIZE}` })
    .max(MAX_PAGE_SIZE, { error: `limit must be an integer from 1 to ${MAX_PAGE_SIZE}` })
    .optional(),
  cursor: z.string({ error: 'cursor must be a string' }).max(400, { error: 'cursor is malformed' }).optional(),
  category: categorySlugSchema('category').optional(),
});

export type SearchInput = z.input<typeof searchInputSchema>;

export interface SearchPage<Tool = ToolSummary> {
  tools: Tool[];
  /** Pass as `cursor` to read the next page; null on the last page. */
  next_cursor: string | null;
}

type HitRow = ToolRow & { tier: number | null; mode: SearchMode; sort_micros: string; sort_id: string };

/**
 * Directory search over live tools (a core verb). `category` limits every list below to the tools in that
 * category (an unknown category is invalid_request). With a query: full-text matches on name and description,
 * ranked by tier (./search-tiers.ts: the name is the query; every word a whole word of the name; every word in
 * the name, the last perhaps typed halfway; every word anywhere), newest first within a tier; when the words
 * match no live tool, the typo fallback (the query's words corrected to words of live tools' names). Featured and sponsored are returned as flags and never change the order. Without a query: the newest
 * live tools. Keyset pagination; the cursor remembers which list it pages through. One statement per page
 * (docs/mcp-and-search.md "Ranking" and "Speed").
 */
export function searchTools({ deps, input }: { deps: Deps; input: SearchInput }): Promise<SearchPage> {
  return searchAs(deps, input, toToolSummary);
}

/** The same search as cards of the pages (with our /media/ pictures): the home page's `?q=`. */
export function searchToolCards({ deps, input }: { deps: Deps; input: SearchInput }): Promise<SearchPage<ToolCard>> {
  return searchAs(deps, input, toToolCard);
}

async function searchAs<Tool>(
  deps: Deps,
  input: SearchInput,
  shape: (row: ToolRow) => Tool,
): Promise<SearchPage<Tool>> {
  const parsed = searchInputSchema.safeParse(input);
  if (!parsed.success) throw invalidInput(parsed.error, 'The search input is invalid.');
  const query = normalizeQuery(parsed.data.query);
  const limit = parsed.data.limit ?? DEFAULT_PAGE_SIZE;
  const category = parsed.data.category;
  // A cursor belongs to one query within one category: both go into its fingerprint (NUL cannot be in either).
  const cursorKey = category ? `${query}\u0000${category}` : query;
  const after = parsed.data.cursor ? decodeCursor(cursorKey, parsed.data.cursor) : undefined;
  if (after && (after.mode === 'newest') !== (query === '')) {
    throw new ServiceError(
      'invalid_request',
      'cursor belongs to a different query; pass next_cursor from the previous page unchanged.',
      { field: 'cursor' },
    );
  }

  const statement =
    query === ''
      ? newestStatement(limit + 1, after, categoryFilter(category))
      : rankedStatement({ mode: after?.mode === 'typo' ? 'typo' : 'text', query, category, take: limit + 1, after });
  // A query of punctuation alone has no words to match: an empty page, without asking the database.
  const rows = statement ? await queryRows<HitRow>(deps.db, statement) : [];
  // Whether the category exists is asked only when a first page comes back empty, so a search stays one statement.
  if (category && !after && rows.length === 0 && (await unknownCategories(deps, [category])).length > 0) {
    throw new ServiceError(
      'invalid_request',
      `category: unknown category "${category}"; GET /api/v1/categories (MCP list_categories) lists the slugs.`,
      {
        field: 'category',
        values: [category],
      },
    );
  }

  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    tools: page.map(shape),
    next_cursor:
      rows.length > limit && last
        ? encodeCursor(cursorKey, {
            mode: last.mode,
            tier: last.tier === null ? null : (Number(last.tier) as SearchTier),
            publishedMicros: String(last.sort_micros),
            id: last.sort_id,
          })
        : null,
  };
}
