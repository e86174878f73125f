import { sql, type SQL } from 'drizzle-orm';
import { toolColumns } from './tool-record';
import { toPrefixTsQuery } from './search-terms';
import type { SearchPosition } from './search-cursor';

// The three SQL statements behind directory search. Each ranks on narrow rows (id, sort keys, score) and
// reads the display columns for the page's rows alone; each pages by keyset on (score, listed time, id).

/**
 * Lowest pg_trgm word similarity between the query and a tool's name that still counts as a typo match: low
 * enough for one typo in a short word ("notoin" → "Notion" ≈ 0.43), high enough to keep unrelated names out.
 */
export const TYPO_SIMILARITY = 0.4;

// When a tool was listed: published_at is set by the pipeline; the status change time stands in defensively.
// The expression matches the partial index sites_live_listed_idx.
const sortAt = sql`coalesce(s.published_at, s.status_changed_at)`;
const sortMicros = (column: SQL) => sql`(extract(epoch FROM ${column}) * 1000000)::bigint::text`;
const fromMicros = (micros: string) => sql`('epoch'::timestamptz + ${micros}::bigint * interval '1 microsecond')`;

/**
 * Only tools in `category` (none: every tool). A semi-join rather than a join so the planner may drive it from
 * either side: from site_categories_category_site_idx for a small category, or along the listing / text index
 * probing site_categories' primary key (site_id, category_slug) for a large one (docs/mcp-and-search.md "Categories").
 */
export function categoryFilter(category: string | undefined): SQL {
  return category
    ? sql` AND EXISTS (SELECT 1 FROM site_categories sc WHERE sc.site_id = s.id AND sc.category_slug = ${category})`
    : sql``;
}

/** The newest live tools first (the empty query): the index picks the page, then its rows are read. */
export function newestStatement(take: number, after: SearchPosition | undefined, filter: SQL = sql``): SQL {
  const page = after ? sql` AND (${sortAt}, s.id) < (${fromMicros(after.publishedMicros)}, ${after.id}::uuid)` : sql``;
  return sql`WITH page AS (
      SELECT s.id, ${sortAt} AS sort_at FROM sites s WHERE s.status = 'live'${filter}${page}
      ORDER BY ${sortAt} DESC, s.id DESC LIMIT ${take}
    )
    SELECT ${toolColumns}, NULL AS score_text, ${sortMicros(sql`p.sort_at`)} AS sort_micros, p.id AS sort_id
    FROM page p JOIN sites s ON s.id = p.id ORDER BY p.sort_at DESC, p.id DESC`;
}

/** Ranks `hits` (id, sort_at, score) by score, keyset-pages them, and reads the page's display columns. */
function rankedPage(hits: SQL, take: number, after: SearchPosition | undefined, prelude: SQL = sql``): SQL {
  const page = after
    ? sql`WHERE (h.score, h.sort_at, h.id) < (${after.score}::real, ${fromMicros(after.publishedMicros)}, ${after.id}::uuid)`
    : sql``;
  return sql`WITH ${prelude} hits AS (${hits}), page AS (
      SELECT h.* FROM hits h ${page} ORDER BY h.score DESC, h.sort_at DESC, h.id DESC LIMIT ${take}
    )
    SELECT ${toolColumns}, p.id AS sort_id, p.score::text AS score_text, ${sortMicros(sql`p.sort_at`)} AS sort_micros
    FROM page p JOIN sites s ON s.id = p.id ORDER BY p.score DESC, p.sort_at DESC, p.id DESC`;
}

// Similarity of the query to the name, plus 1 for an exact name match: part of every text score.
const nameScore = (query: string) =>
  sql`word_similarity(${query}, s.name) + CASE WHEN lower(s.name) = lower(${query}) THEN 1 ELSE 0 END`;

/**
 * Full-text matches: every word in the name or description (the last word as a prefix). Score = ts_rank_cd
 * normalised to 0..1 (name is weight A, description B, so a name match ranks higher) + the name score.
 * Returns undefined when the query has no words to match.
 */
export function textStatement(query: string, take: number, after: SearchPosition | undefined, filter: SQL = sql``): SQL | undefined {
  const tsQuery = toPrefixTsQuery(query);
  if (!tsQuery) return undefined;
  return rankedPage(
    sql`SELECT s.id, ${sortAt} AS sort_at,
        (ts_rank_cd(s.search_vector, to_tsquery('english', ${tsQuery}), 32) + ${nameScore(query)})::real AS score
      FROM sites s WHERE s.status = 'live' AND s.search_vector @@ to_tsquery('english', ${tsQuery})${filter}`,
    take,
    after,
  );
}

/**
 * The typo fallback: names within TYPO_SIMILARITY of the query, through the trigram index. The threshold is
 * set for this statement only (set_config(..., true) ends with the implicit transaction); `cfg.pad` is '' but
 * makes the trigram condition depend on cfg, so the setting is in place before any row is tested, whatever
 * plan the planner picks.
 */
export function typoStatement(query: string, take: number, after: SearchPosition | undefined, filter: SQL = sql``): SQL {
  return rankedPage(
    sql`SELECT s.id, ${sortAt} AS sort_at, (${nameScore(query)})::real AS score
      FROM cfg CROSS JOIN sites s WHERE s.status = 'live' AND (${query} || cfg.pad) <% s.name${filter}`,
    take,
    after,
    sql`cfg AS MATERIALIZED (
      SELECT substr(set_config('pg_trgm.word_similarity_threshold', ${String(TYPO_SIMILARITY)}, true), 1, 0) AS pad
    ),`,
  );
}
