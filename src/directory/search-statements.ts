import { sql, type SQL } from 'drizzle-orm';
import { toolColumns } from './tool-record';
import type { SearchPosition } from './search-cursor';
import { categoryQuery, fromMicros, inCategory, sortAt, sortMicros } from './search-keys';
import { searchPageCall } from './search-tiers';
import { queryTerms, toPrefixTsQuery, wholeWords } from './search-terms';

// The SQL statements behind directory search: one statement per page, whatever the query
// (docs/mcp-and-search.md "Ranking" and "Speed"). Each finds the page's ids and sort keys on narrow rows,
// then reads the display columns for those rows alone; each pages by keyset.

/**
 * Only tools in `category` (none: every tool). It tests the category's lexeme in search_vector, which the
 * listing index carries (a filtered newest-first walk reads no table row) and the GIN index answers for a
 * sparse category (docs/mcp-and-search.md "Speed").
 */
export function categoryFilter(category: string | undefined): SQL {
  return category ? sql` AND ${inCategory(category)}` : sql``;
}

/** The newest live tools first (the empty query): the index picks the page, then its rows are read. */
export function newestStatement(take: number, after: SearchPosition | undefined, filter: SQL = sql``): SQL {
  const page = after ? sql` AND (${sortAt}, s.id) < (${fromMicros(after.publishedMicros)}, ${after.id}::uuid)` : sql``;
  return sql`WITH page AS (
      SELECT s.id, ${sortAt} AS sort_at FROM sites s WHERE s.status = 'live'${filter}${page}
      ORDER BY ${sortAt} DESC, s.id DESC LIMIT ${take}
    )
    SELECT ${toolColumns}, NULL AS tier, 'newest' AS mode, ${sortMicros(sql`p.sort_at`)} AS sort_micros, p.id AS sort_id
    FROM page p JOIN sites s ON s.id = p.id ORDER BY p.sort_at DESC, p.id DESC`;
}

/** Reads the display columns of a ranked page (`page`: id, sort_at, tier, mode), in page order. */
function readPage(ctes: SQL): SQL {
  return sql`WITH ${ctes}
    SELECT ${toolColumns}, p.tier, p.mode, ${sortMicros(sql`p.sort_at`)} AS sort_micros, p.id AS sort_id
    FROM page p JOIN sites s ON s.id = p.id ORDER BY p.tier, p.sort_at DESC, p.id DESC`;
}

/**
 * A page of text matches (`query`'s words, the last one as a prefix). On a first page the same statement also holds
 * the typo fallback, which runs only when no live tool matches the words at all; a later page of a typo search
 * passes `mode: 'typo'` and pages through the corrected query alone.
 */
export function rankedStatement(options: {
  mode: 'text' | 'typo';
  query: string;
  category: string | undefined;
  take: number;
  after: SearchPosition | undefined;
}): SQL | undefined {
  const { query, category } = options;
  const tsQuery = toPrefixTsQuery(query);
  if (!tsQuery) return undefined;
  const terms = queryTerms(query);
  // With a category, its lexeme joins the words (both vectors carry it): one GIN lookup answers both.
  const withCategory = (tsquery: SQL) => (category ? sql`(${tsquery} && ${categoryQuery(category)})` : tsquery);
  const call = searchPageCall({
    query,
    terms,
    whole: withCategory(sql`to_tsquery('english', ${wholeWords(terms)})`),
    prefix: withCategory(sql`to_tsquery('english', ${tsQuery})`),
    category,
    categoryQuery: category ? categoryQuery(category) : undefined,
    take: options.take,
    typoCursor: options.mode === 'typo',
    after: options.after,
  });
  return readPage(sql`page AS MATERIALIZED (SELECT * FROM ${call})`);
}
