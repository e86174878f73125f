import { sql, type SQL } from 'drizzle-orm';
import { toolColumns } from './tool-record';
import type { SearchPosition } from './search-cursor';
import { categoryQuery, fromMicros, inCategory, sortAt, sortMicros } from './search-keys';
import { rankedHits, type TierQuery } from './search-tiers';
import { correctedTsQueries } from './search-typo';
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
 * A page of text matches (`query`'s words, the last one as a prefix: `tsQuery`). On a first page the same
 * statement also holds the typo fallback, which runs only when no live tool matches the words at all; a later
 * page of a typo search passes `mode: 'typo'` and pages through the corrected query alone.
 */
export function rankedStatement(options: {
  mode: 'text' | 'typo';
  query: string;
  category: string | undefined;
  take: number;
  after: SearchPosition | undefined;
}): SQL | undefined {
  const { query, category, take, after } = options;
  const tsQuery = toPrefixTsQuery(query);
  if (!tsQuery) return undefined;
  const terms = queryTerms(query);
  // With a category, its lexeme joins the words (both vectors carry it): one GIN lookup answers both.
  const withCategory = (tsquery: SQL) => (category ? sql`(${tsquery} && ${categoryQuery(category)})` : tsquery);
  // Every tsquery is computed once, in a CTE, and read as a parameter: rows never re-parse it, and the plan does
  // not depend on the words, so node-postgres may keep one prepared plan per statement shape (its choices, the
  // listing index for the window and GIN lookups for sparse tiers, hold for any words).
  const words = sql`words AS MATERIALIZED (SELECT ${withCategory(sql`to_tsquery('english', ${wholeWords(terms)})`)} AS whole,
    ${withCategory(sql`to_tsquery('english', ${tsQuery})`)} AS q)`;
  const text: TierQuery = {
    query,
    tiers: [sql`s.name_vector @@ (SELECT whole FROM words)`, sql`s.name_vector @@ (SELECT q FROM words)`, sql`s.search_vector @@ (SELECT q FROM words)`],
    exactTier: true,
    category,
    take,
    after,
  };
  const typo: TierQuery = {
    ...text,
    tiers: [sql`s.name_vector @@ (SELECT closest FROM corrected)`, sql`s.name_vector @@ (SELECT any_fix FROM corrected)`],
    exactTier: false,
  };
  const corrected = sql`corrected AS MATERIALIZED (
    SELECT ${withCategory(sql`c.closest`)} AS closest, ${withCategory(sql`c.any_fix`)} AS any_fix FROM (${correctedTsQueries(terms)}) c)`;
  if (options.mode === 'typo') {
    return readPage(sql`${corrected}, ${rankedHits('y', typo, sql`(SELECT closest FROM corrected) IS NOT NULL`)},
      page AS (SELECT id, sort_at, tier, 'typo' AS mode FROM y_page)`);
  }
  if (after) {
    return readPage(sql`${words}, ${rankedHits('t', text, sql`true`)},
      page AS (SELECT id, sort_at, tier, 'text' AS mode FROM t_page)`);
  }
  return readPage(sql`${words}, ${rankedHits('t', text, sql`true`)}, ${corrected},
    ${rankedHits('y', typo, sql`NOT EXISTS (SELECT 1 FROM t_page) AND (SELECT closest FROM corrected) IS NOT NULL`)},
    page AS (SELECT id, sort_at, tier, 'text' AS mode FROM t_page UNION ALL SELECT id, sort_at, tier, 'typo' AS mode FROM y_page)`);
}
