import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { ServiceError } from '../errors';
import { toolColumns, toToolSummary, type ToolRow, type ToolSummary } from './tool-record';
import { MAX_QUERY_LENGTH, normalizeQuery, toPrefixTsQuery } from './search-terms';
import { decodeCursor, encodeCursor, type SearchPosition } from './search-cursor';

export const MAX_PAGE_SIZE = 50;
export const DEFAULT_PAGE_SIZE = 20;

/**
 * Lowest pg_trgm word similarity between the query and a tool's name that still counts as a typo match: low
 * enough for one typo in a short word ("notoin" → "Notion" ≈ 0.43), high enough to keep unrelated names out.
 */
export const TYPO_SIMILARITY = 0.4;

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
});

export type SearchInput = z.input<typeof searchInputSchema>;

export interface SearchPage {
  tools: ToolSummary[];
  /** Pass as `cursor` to read the next page; null on the last page. */
  next_cursor: string | null;
}

type HitRow = ToolRow & { score_text: string | null; sort_micros: string; sort_id: string };

/**
 * Directory search over live tools (a core verb). With a query: full-text match (name weighs more than the
 * description) or a typo-tolerant trigram match on the name, ranked by relevance; featured and sponsored
 * are returned as flags and never change the order. Without a query: the newest live tools.
 * Keyset pagination in one statement per page.
 */
export async function searchTools({ deps, input }: { deps: Deps; input: SearchInput }): Promise<SearchPage> {
  const parsed = searchInputSchema.safeParse(input);
  if (!parsed.success) throw new ServiceError('invalid_request', parsed.error.issues[0]?.message ?? 'The search input is invalid.');
  const query = normalizeQuery(parsed.data.query);
  const limit = parsed.data.limit ?? DEFAULT_PAGE_SIZE;
  const after = parsed.data.cursor ? decodeCursor(query, parsed.data.cursor) : undefined;
  if (after && (after.score === null) !== (query === '')) {
    throw new ServiceError('invalid_request', 'cursor belongs to a different query; pass next_cursor from the previous page unchanged.');
  }
  const statement = query === '' ? newestStatement(limit + 1, after) : relevanceStatement(query, limit + 1, after);
  const rows = await queryRows<HitRow>(deps.db, statement);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    tools: page.map(toToolSummary),
    next_cursor:
      rows.length > limit && last
        ? encodeCursor(query, { score: last.score_text, publishedMicros: String(last.sort_micros), id: last.sort_id })
        : null,
  };
}

// When a tool was listed: published_at is set by the pipeline; the status change time stands in defensively.
const sortAt = sql`coalesce(s.published_at, s.status_changed_at)`;
const sortMicros = (column: SQL) => sql`(extract(epoch FROM ${column}) * 1000000)::bigint::text`;
const fromMicros = (micros: string) => sql`('epoch'::timestamptz + ${micros}::bigint * interval '1 microsecond')`;

/** The newest live tools first (the empty query): the sort key alone picks the page, then its rows are read. */
export function newestStatement(take: number, after: SearchPosition | undefined): SQL {
  const page = after ? sql` AND (${sortAt}, s.id) < (${fromMicros(after.publishedMicros)}, ${after.id}::uuid)` : sql``;
  return sql`WITH page AS (
      SELECT s.id, ${sortAt} AS sort_at FROM sites s WHERE s.status = 'live'${page}
      ORDER BY ${sortAt} DESC, s.id DESC LIMIT ${take}
    )
    SELECT ${toolColumns}, NULL AS score_text, ${sortMicros(sql`p.sort_at`)} AS sort_micros, p.id AS sort_id
    FROM page p JOIN sites s ON s.id = p.id ORDER BY p.sort_at DESC, p.id DESC`;
}

/**
 * The relevance statement. Candidates: full-text matches, plus names within TYPO_SIMILARITY of the query —
 * the typo fallback, used when the words match no live tool (otherwise only names containing the whole query
 * join, threshold 1, which keeps common words from scoring thousands of near misses).
 * Score = ts_rank_cd (normalised to 0..1; name is weight A, description B) + the query's word similarity to
 * the name + 1 for an exact name match. Ranking touches only the id, sort keys and score of each candidate;
 * the display columns are read for the page's rows alone.
 * The trigram threshold is set for this statement only (set_config(..., true) ends with the implicit
 * transaction): `cfg.pad` is '' but makes the trigram condition depend on cfg, so the setting is in place
 * before any row is tested, whatever plan runs.
 */
export function relevanceStatement(query: string, take: number, after: SearchPosition | undefined): SQL {
  const tsQuery = toPrefixTsQuery(query);
  const textMatch = tsQuery ? sql`s.search_vector @@ to_tsquery('english', ${tsQuery})` : sql`false`;
  const textRank = tsQuery ? sql`ts_rank_cd(s.search_vector, to_tsquery('english', ${tsQuery}), 32)` : sql`0`;
  const page = after
    ? sql`WHERE (h.score, h.sort_at, h.id) < (${after.score}::real, ${fromMicros(after.publishedMicros)}, ${after.id}::uuid)`
    : sql``;
  const threshold = tsQuery
    ? sql`CASE WHEN EXISTS (SELECT 1 FROM sites s WHERE s.status = 'live' AND ${textMatch}) THEN '1' ELSE ${String(TYPO_SIMILARITY)} END`
    : sql`${String(TYPO_SIMILARITY)}`;
  return sql`WITH cfg AS MATERIALIZED (
      SELECT substr(set_config('pg_trgm.word_similarity_threshold', ${threshold}, true), 1, 0) AS pad
    ), hits AS (
      SELECT s.id, ${sortAt} AS sort_at,
        (${textRank} + word_similarity(${query}, s.name)
          + CASE WHEN lower(s.name) = lower(${query}) THEN 1 ELSE 0 END)::real AS score
      FROM cfg CROSS JOIN sites s
      WHERE s.status = 'live' AND (${textMatch} OR (${query} || cfg.pad) <% s.name)
    ), page AS (
      SELECT h.* FROM hits h ${page} ORDER BY h.score DESC, h.sort_at DESC, h.id DESC LIMIT ${take}
    )
    SELECT ${toolColumns}, p.id AS sort_id, p.score::text AS score_text, ${sortMicros(sql`p.sort_at`)} AS sort_micros
    FROM page p JOIN sites s ON s.id = p.id ORDER BY p.score DESC, p.sort_at DESC, p.id DESC`;
}
