import { sql, type SQL } from 'drizzle-orm';

// The typo fallback: each word of the query is replaced by the words of live tools' names most similar to it
// (search_words, kept by a trigger: drizzle/*_search_derived_columns.sql), and names are searched for the
// corrected words. Correcting words against a vocabulary is cheap, where comparing the query with every name was
// not (docs/mcp-and-search.md "Typo fallback").

/**
 * Lowest pg_trgm similarity between a query word and a vocabulary word that still counts as a typo of it: low
 * enough for a swapped pair of letters in a six-letter word ("notoin" → "notion" ≈ 0.27), high enough to leave
 * unrelated words alone.
 */
export const TYPO_SIMILARITY = 0.25;

/** How many corrections of one word are searched (the closest first). */
export const CORRECTIONS_PER_WORD = 3;

/**
 * A SELECT of one row (closest, any_fix): tsqueries of `terms` (every word, the last as a prefix) with each
 * word replaced by its closest correction, and by any of its corrections. Both NULL when no word changed (the
 * fallback then has nothing new to search). A word already in the vocabulary stays as it is. The threshold is
 * set for this statement only (set_config(..., true) ends with the implicit transaction); `cfg.pad` is '' but
 * makes the trigram condition depend on cfg, so the setting is in place before any word is tested.
 */
export function correctedTsQueries(terms: readonly string[]): SQL {
  return sql`WITH cfg AS MATERIALIZED (
      SELECT substr(set_config('pg_trgm.similarity_threshold', ${String(TYPO_SIMILARITY)}, true), 1, 0) AS pad
    ), term AS (
      SELECT t.term, t.n, t.n = ${terms.length} AS last FROM jsonb_array_elements_text(${JSON.stringify(terms)}::jsonb) WITH ORDINALITY AS t(term, n)
    ), fix AS (
      SELECT t.n, t.last, f.word, f.rank FROM term t CROSS JOIN cfg
      CROSS JOIN LATERAL (
        SELECT w.word, row_number() OVER (ORDER BY w.word = t.term DESC, similarity(w.word, t.term) DESC, w.tools DESC, w.word) AS rank
        FROM search_words w WHERE w.word % (t.term || cfg.pad)
        ORDER BY rank LIMIT CASE WHEN EXISTS (SELECT 1 FROM search_words x WHERE x.word = t.term) THEN 1 ELSE ${CORRECTIONS_PER_WORD} END
      ) f
      UNION ALL
      SELECT t.n, t.last, t.term, 1 FROM term t WHERE NOT EXISTS (SELECT 1 FROM search_words w, cfg WHERE w.word % (t.term || cfg.pad))
    ), per_word AS (
      SELECT n, min(word) FILTER (WHERE rank = 1) AS closest,
        '(' || string_agg(word || CASE WHEN last THEN ':*' ELSE '' END, ' | ' ORDER BY rank) || ')' AS any_fix,
        bool_or(last) AS last, bool_and(word IN (SELECT term FROM term tt WHERE tt.n = fix.n)) AS unchanged
      FROM fix GROUP BY n
    )
    SELECT CASE WHEN NOT bool_and(unchanged) THEN to_tsquery('english', string_agg(closest || CASE WHEN last THEN ':*' ELSE '' END, ' & ' ORDER BY n)) END AS closest,
      CASE WHEN NOT bool_and(unchanged) THEN to_tsquery('english', string_agg(any_fix, ' & ' ORDER BY n)) END AS any_fix
    FROM per_word`;
}
