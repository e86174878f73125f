import { sql, type SQL } from 'drizzle-orm';
import { toolColumns, toolListColumns, toolListNames, toolListValues } from './tool-record';
import type { SearchPosition } from './search-cursor';
import { fromMicros, inCategory, sortAt, sortMicros } from './search-keys';
import { type RankedPageCall, searchCallRows, searchResultsCall } from './search-plan';

// The SQL statements behind directory search: one statement per page (or per batch of pages), whatever the query
// (docs/mcp-and-search.md "Ranking" and "Speed"). Each finds the page's ids and sort keys on narrow rows, then reads
// the display columns for those rows alone; each pages by keyset. Every page ends with one 'meta' row (no tool) that
// names the categories the rows carry as slugs, so no row looks its categories up on its own.

/**
 * Only tools in `category` (none: every tool). It tests the category's lexeme in search_vector, which the
 * listing index carries (a filtered newest-first walk reads no table row) and the GIN index answers for a
 * sparse category (docs/mcp-and-search.md "Speed").
 */
export function categoryFilter(category: string | undefined): SQL {
  return category ? sql` AND ${inCategory(category)}` : sql``;
}

/** The page's meta row: every category's name by slug (a few dozen at most: operators make them). */
const categoryNames = sql`jsonb_build_object('categories', (SELECT coalesce(jsonb_object_agg(c.slug, c.name), '{}') FROM categories c))`;

/** The ids and sort keys of the `take` newest live tools after `after` (in `filter`): the index picks them. */
function newestPage(take: number, after: SearchPosition | undefined, filter: SQL): SQL {
  const page = after ? sql` AND (${sortAt}, s.id) < (${fromMicros(after.publishedMicros)}, ${after.id}::uuid)` : sql``;
  return sql`page AS (
      SELECT s.id, ${sortAt} AS sort_at FROM sites s WHERE (s.status = 'live' AND NOT s.health_hidden)${filter}${page}
      ORDER BY ${sortAt} DESC, s.id DESC LIMIT ${take}
    )`;
}

/** The newest live tools first, each with its categories by name (the directory's pages: ./browse.ts). */
export function newestStatement(take: number, after: SearchPosition | undefined, filter: SQL = sql``): SQL {
  return sql`WITH ${newestPage(take, after, filter)}
    SELECT ${toolColumns}, NULL AS tier, 'newest' AS mode, ${sortMicros(sql`p.sort_at`)} AS sort_micros, p.id AS sort_id
    FROM page p JOIN sites s ON s.id = p.id ORDER BY p.sort_at DESC, p.id DESC`;
}

/** The newest live tools first as a search lists them (the empty query), then the meta row. */
export function newestSearchStatement(take: number, after: SearchPosition | undefined, filter: SQL = sql``): SQL {
  return sql`WITH ${newestPage(take, after, filter)}
    SELECT * FROM (
      SELECT ${toolListColumns}, NULL::int AS tier, 'newest' AS mode, NULL::jsonb AS meta, ${sortMicros(sql`p.sort_at`)} AS sort_micros, p.id AS sort_id,
        p.sort_at AS sort_at FROM page p JOIN sites s ON s.id = p.id
      UNION ALL
      SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'meta', ${categoryNames}, NULL, NULL, '-infinity'
    ) x ORDER BY x.sort_at DESC, x.sort_id DESC`;
}

/** The fields of a packed search row (`rankedPagesStatement`), in order: the list fields, then where the row stands. */
export const rankedRowNames = [...toolListNames, 'tier', 'mode', 'meta', 'sort_micros', 'sort_id'] as const;

/**
 * Pages of searches, one per call, in one statement (several under load: ./ranked-pages.ts). Each is a page of a search
 * for `query`'s words (the last one perhaps typed halfway): ranked matches, or, when the words find nothing on a first
 * page, the corrected query's (when `correct`), or else tools and categories to offer instead (search_results in
 * drizzle/0034_search_meaning.sql). A query without a word (punctuation alone) finds no tool but still gets its offer.
 * One row per call: `n`, its index in `calls`, and `rows`, a JSON array of the page's rows in order, each an array of
 * `rankedRowNames`' values. Packed, a page is one value to read where node-postgres read 22 rows of 16 columns field by
 * field (about 15 µs of the server's CPU a search, docs/bench.md "Searches nobody asked before, under load"). The calls
 * travel as one JSON parameter, so the text is the same for every batch and every driver (a query must be well-formed
 * text, as normalizeQuery makes it: PostgreSQL refuses JSON that holds half a surrogate pair).
 */
export function rankedPagesStatement(calls: readonly RankedPageCall[]): SQL {
  return sql`SELECT c.n, (SELECT coalesce(json_agg(json_build_array(${toolListValues}, p.tier, p.mode, p.meta, ${sortMicros(sql`p.sort_at`)}, p.id)
      ORDER BY p.ord), '[]') FROM ${searchResultsCall} p LEFT JOIN sites s ON s.id = p.id) AS rows
    FROM ${searchCallRows(calls)}`;
}
