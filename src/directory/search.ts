import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { invalidInput, ServiceError } from '../errors';
import {
  listCard,
  listCategories,
  listSummary,
  type ToolCard,
  type ToolCategory,
  type ToolListRow,
  type ToolSummary,
} from './tool-record';
import { MAX_QUERY_LENGTH, normalizeQuery } from './search-terms';
import { decodeCursor, encodeCursor, type SearchMode, type SearchTier } from './search-cursor';
import { categoryFilter, newestSearchStatement, rankedRowNames } from './search-statements';
import { rankedPages } from './ranked-pages';
import { verifiedMethodSql } from '../domains/verified-mark';
import { currentMcpProbe } from './mcp-record';
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
  correct: z.boolean({ error: 'correct must be a boolean' }).optional(),
  verified: z.boolean({ error: 'verified must be true or false' }).optional(),
  /** `ok`: only tools whose last daily check passed (docs/health.md); a page may then hold fewer than `limit`. */
  health: z.enum(['ok'], { error: 'health must be ok' }).optional(),
  /** true: only listings whose MCP server answered its last probe (docs/registry-api.md); a page may then hold fewer. */
  has_mcp: z.boolean({ error: 'has_mcp must be true or false' }).optional(),
});

export type SearchInput = z.input<typeof searchInputSchema>;

/** A query the search had to correct: the results are `query`'s; the reader typed `corrected_from`. */
export interface SearchSuggestion {
  query: string;
  corrected_from: string;
}

/** A category an empty answer offers. */
export interface OfferedCategory {
  slug: string;
  name: string;
  tool_count: number;
}

export interface SearchPage<Tool = ToolSummary> {
  tools: Tool[];
  /** Pass as `cursor` to read the next page; null on the last page. */
  next_cursor: string | null;
  /** Set when the words found nothing and a correction of them did: `tools` are the corrected query's. */
  suggestion: SearchSuggestion | null;
  /** When a first page found nothing: the categories closest to the words (else empty). */
  closest_categories: OfferedCategory[];
  /** When a first page found nothing: the newest tools (of the category searched, when it has any; else empty). */
  newest_tools: Tool[];
}

type HitRow = ToolListRow & {
  tier: number | null;
  mode: SearchMode | 'fallback' | 'meta';
  meta: Meta | string | null;
  sort_micros: string;
  sort_id: string;
};
interface Meta {
  categories?: Record<string, string>;
  corrected?: string;
  attempt?: number;
  closest_categories?: OfferedCategory[];
  unknown_category?: boolean;
}

/**
 * Directory search over live tools (a core verb). `category` limits every list below to the tools in that category
 * (an unknown category is invalid_request). With a query: matches of its words in names, descriptions and category
 * names (and their synonyms), ranked by tier (./search-plan.ts: the name is the query; every word a whole word of the
 * name; every word in the name, the last perhaps typed halfway; every word in the name or the description; every word
 * there or naming a category of the tool; below them all, the query is the name of a tool of the listing's reachable
 * MCP server), newest first within a tier. When the words find nothing, the typo fallback
 * (./search-typo.ts, unless `correct` is false) searches a corrected query and says so in `suggestion`; when that finds
 * nothing either, the answer offers the closest categories and the newest tools. Featured and sponsored are returned as
 * flags and never change the order. Without a query: the newest live tools. Keyset pagination; the cursor remembers
 * which list it pages through. One statement per page, or under load one for the pages of several searches that waited
 * together (./ranked-pages.ts; docs/mcp-and-search.md "Ranking", "Typos" and "Speed").
 */
export function searchTools({ deps, input }: { deps: Deps; input: SearchInput }): Promise<SearchPage> {
  return searchAs(deps, input, listSummary);
}

/** The same search as cards of the pages (with our /media/ pictures): the home page's `?q=`. */
export function searchToolCards({ deps, input }: { deps: Deps; input: SearchInput }): Promise<SearchPage<ToolCard>> {
  return searchAs(deps, input, listCard);
}

/** The rows of a packed page (rankedPagesStatement): each an array of rankedRowNames' values (drivers may leave the JSON as text). */
function unpackRows(packed: unknown): HitRow[] {
  const values = (typeof packed === 'string' ? JSON.parse(packed) : (packed ?? [])) as unknown[][];
  return values.map((value) => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < rankedRowNames.length; i++) row[rankedRowNames[i]!] = value[i];
    return row as unknown as HitRow;
  });
}

const metaOf = (row: HitRow | undefined): Meta =>
  typeof row?.meta === 'string' ? (JSON.parse(row.meta) as Meta) : (row?.meta ?? {});

async function searchAs<Tool>(
  deps: Deps,
  input: SearchInput,
  shape: (row: ToolListRow, categories: ToolCategory[]) => Tool,
): Promise<SearchPage<Tool>> {
  const parsed = searchInputSchema.safeParse(input);
  if (!parsed.success) throw invalidInput(parsed.error, 'The search input is invalid.');
  const query = normalizeQuery(parsed.data.query);
  const limit = parsed.data.limit ?? DEFAULT_PAGE_SIZE;
  const category = parsed.data.category;
  const correct = parsed.data.correct ?? true;
  const verified = parsed.data.verified === true;
  // A cursor belongs to one query within one category (and the verified filter): all go into its fingerprint (NUL cannot be in either).
  const cursorKey = `${category ? `${query}\u0000${category}` : query}${verified ? '\u0000verified' : ''}`;
  const after = parsed.data.cursor ? decodeCursor(cursorKey, parsed.data.cursor) : undefined;
  if (after && ((after.mode === 'newest') !== (query === '') || (after.mode === 'typo' && !correct))) {
    throw new ServiceError(
      'invalid_request',
      'cursor belongs to a different query; pass next_cursor from the previous page unchanged.',
      { field: 'cursor' },
    );
  }
  const unknownCategory = () =>
    new ServiceError(
      'invalid_request',
      `category: unknown category "${category}"; GET /api/v1/categories (MCP list_categories) lists the slugs.`,
      {
        field: 'category',
        values: category ? [category] : [],
      },
    );

  // The ranked page comes packed (./ranked-pages.ts); the newest tools come as rows.
  const rows =
    query === ''
      ? await queryRows<HitRow>(
          deps.db,
          newestSearchStatement(
            limit + 1,
            after,
            sql`${categoryFilter(category)}${verified ? sql` AND ${verifiedMethodSql} IS NOT NULL` : sql``}`,
          ),
        )
      : unpackRows(await rankedPages(deps).run({ query, category, take: limit + 1, correct, after }));
  const meta = metaOf(rows.find((row) => row.mode === 'meta'));
  if (meta.unknown_category) throw unknownCategory();
  const names = meta.categories ?? {};
  const hits = rows.filter((row) => row.mode === 'text' || row.mode === 'typo' || row.mode === 'newest');
  // The empty query asks whether the category exists only when a first page comes back empty, so it stays one statement.
  if (query === '' && category && !after && hits.length === 0 && (await unknownCategories(deps, [category])).length > 0)
    throw unknownCategory();

  const page = hits.slice(0, limit);
  const last = page.at(-1);
  // The health filter drops from the page, never from the walk: the cursor continues after the last row read.
  const healthy = parsed.data.health === 'ok' ? await onlyHealthy(deps, page) : page;
  const shown = parsed.data.has_mcp === true ? await onlyWithMcp(deps, healthy) : healthy;
  const corrected = hits.some((row) => row.mode === 'typo') ? meta.corrected : undefined;
  return {
    // Filters of marks and health drop from the page, never from the walk: next_cursor goes on from the last ranked row
    // (docs/ownership.md, docs/health.md), so a page may hold fewer than `limit` tools.
    tools: (verified ? shown.filter((row) => row.verified_method) : shown).map((row) =>
      shape(row, listCategories(row, names)),
    ),
    next_cursor:
      hits.length > limit && last
        ? encodeCursor(cursorKey, {
            mode: last.mode as SearchMode,
            tier: last.tier === null ? null : (Number(last.tier) as SearchTier),
            publishedMicros: String(last.sort_micros),
            id: last.sort_id,
            ...(last.mode === 'typo' && { attempt: meta.attempt ?? after?.attempt ?? 1 }),
          })
        : null,
    suggestion: corrected ? { query: corrected, corrected_from: query } : null,
    closest_categories: (meta.closest_categories ?? []).map((c) => ({
      slug: c.slug,
      name: c.name,
      tool_count: Number(c.tool_count),
    })),
    newest_tools: rows.filter((row) => row.mode === 'fallback').map((row) => shape(row, listCategories(row, names))),
  };
}

/** The rows whose tool's last check passed: one primary-key lookup per row, in one statement. */
async function onlyHealthy<Row extends { sort_id: string | null }>(deps: Deps, rows: Row[]): Promise<Row[]> {
  const ids = rows.map((row) => row.sort_id).filter((id): id is string => typeof id === 'string');
  if (ids.length === 0) return [];
  const ok = await queryRows<{ site_id: string }>(
    deps.db,
    sql`SELECT site_id FROM site_health WHERE site_id = ANY (${`{${ids.join(',')}}`}::uuid[]) AND state = 'ok'`,
  );
  const healthy = new Set(ok.map((row) => row.site_id));
  return rows.filter((row) => row.sort_id !== null && healthy.has(row.sort_id));
}

/** The rows whose listing names an MCP server that its last probe reached: one primary-key lookup per row. */
async function onlyWithMcp<Row extends { sort_id: string | null }>(deps: Deps, rows: Row[]): Promise<Row[]> {
  const ids = rows.map((row) => row.sort_id).filter((id): id is string => typeof id === 'string');
  if (ids.length === 0) return [];
  const reachable = await queryRows<{ site_id: string }>(
    deps.db,
    sql`SELECT m.site_id FROM site_mcp m JOIN sites s ON s.id = m.site_id AND ${currentMcpProbe}
      WHERE m.site_id = ANY (${`{${ids.join(',')}}`}::uuid[]) AND m.status = 'reachable'`,
  );
  const found = new Set(reachable.map((row) => row.site_id));
  return rows.filter((row) => row.sort_id !== null && found.has(row.sort_id));
}
