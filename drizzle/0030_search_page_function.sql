-- Directory search in the database (src/directory/search-statements.ts calls search_page; docs/mcp-and-search.md
-- "Ranking" and "Speed"). Procedural, so a search runs only the steps its words need, and the app's statement is one
-- short call: nothing long to plan per search (Neon's HTTP driver cannot keep a prepared statement), and each step's
-- plan is kept by the session. Every tuning number comes from the caller (src/directory/search-tiers.ts).

-- One ranked match: the tool, its listing key and its tier (0: the name is the query; 1 to 3: docs "Ranking").
CREATE TYPE search_hit AS (id uuid, sort_at timestamptz, tier int);
--> statement-breakpoint
-- The page of one tiered search after the previous page's last row (after_tier NULL: a first page). Tier k of a text
-- search is name_vector @@ t1, name_vector @@ t2, search_vector @@ t3 (each holds for the rows of the ones before); a
-- two-tier search (the typo fallback) passes t3 NULL and exact NULL. Tier 0 is lower(name) = exact, in `category`.
-- Each tier's rows come from the cheapest of three places (src/directory/search-tiers.ts explains the rule):
-- the newest `window_size` live tools (index-only in listing order), reading on past them, or a GIN lookup.
CREATE FUNCTION search_tier_hits(
  t1 tsquery, t2 tsquery, t3 tsquery, exact text, category text, take int,
  after_tier int, after_at timestamptz, after_id uuid,
  window_size int, walk_rule real, walk_slack real
) RETURNS search_hit[] LANGUAGE plpgsql STABLE
-- The plans hold for any words (the window and reading on walk the listing index; a lookup sorts its few matches by
-- an expression no index holds, so it never walks the listing index hoping for matches): plan each step once.
SET plan_cache_mode = force_generic_plan
AS $$
DECLARE
  last_tier int := CASE WHEN t3 IS NULL THEN 2 ELSE 3 END;
  hits search_hit[] := '{}';
  found_hits search_hit[];
  pos_at timestamptz;
  pos_id uuid;
  -- The window read last, from which position: its size, rows per tier, first `take` rows of each tier, last row.
  win_at timestamptz;
  win_id uuid;
  win_size int;
  win_n int[];
  win_hits search_hit[];
  win_end_at timestamptz;
  win_end_id uuid;
  need int;
  n int;
  more int;
BEGIN
  -- Tier 0: the name is the query.
  IF exact IS NOT NULL AND coalesce(after_tier, 0) = 0 THEN
    pos_at := CASE WHEN after_tier = 0 THEN after_at ELSE 'infinity' END;
    pos_id := CASE WHEN after_tier = 0 THEN after_id ELSE 'ffffffff-ffff-ffff-ffff-ffffffffffff' END;
    hits := ARRAY(
      SELECT ROW(s.id, s.listed_at, 0)::search_hit FROM sites s
      WHERE s.status = 'live' AND lower(s.name) = exact AND (category IS NULL OR s.category_slugs @> ARRAY[category])
        AND (s.listed_at, s.id) < (pos_at, pos_id)
      ORDER BY s.listed_at + interval '0 s' DESC, s.id DESC LIMIT take);
  END IF;

  FOR k IN greatest(coalesce(after_tier, 1), 1)..last_tier LOOP
    need := take - cardinality(hits);
    EXIT WHEN need <= 0;
    -- The tier the previous page ended in continues from that row; later tiers start from the newest tool.
    IF k = after_tier THEN
      pos_at := after_at;
      pos_id := after_id;
    ELSE
      pos_at := 'infinity';
      pos_id := 'ffffffff-ffff-ffff-ffff-ffffffffffff';
    END IF;
    IF win_at IS DISTINCT FROM pos_at OR win_id IS DISTINCT FROM pos_id THEN
      SELECT count(*)::int,
        ARRAY[count(*) FILTER (WHERE w.tier = 1), count(*) FILTER (WHERE w.tier = 2), count(*) FILTER (WHERE w.tier = 3)]::int[],
        coalesce((array_agg(ROW(w.id, w.sort_at, w.tier)::search_hit ORDER BY w.sort_at DESC, w.id DESC) FILTER (WHERE w.tier = 1))[1:take], '{}')
          || coalesce((array_agg(ROW(w.id, w.sort_at, w.tier)::search_hit ORDER BY w.sort_at DESC, w.id DESC) FILTER (WHERE w.tier = 2))[1:take], '{}')
          || coalesce((array_agg(ROW(w.id, w.sort_at, w.tier)::search_hit ORDER BY w.sort_at DESC, w.id DESC) FILTER (WHERE w.tier = 3))[1:take], '{}'),
        (array_agg(w.sort_at) FILTER (WHERE w.rn = window_size))[1],
        (array_agg(w.id) FILTER (WHERE w.rn = window_size))[1]
      INTO win_size, win_n, win_hits, win_end_at, win_end_id
      FROM (
        SELECT s.id, s.listed_at AS sort_at, row_number() OVER (ORDER BY s.listed_at DESC, s.id DESC) AS rn,
          CASE WHEN NOT (CASE WHEN t3 IS NULL THEN s.name_vector @@ t2 ELSE s.search_vector @@ t3 END) THEN NULL
            WHEN lower(s.name) = exact THEN 0 WHEN s.name_vector @@ t1 THEN 1 WHEN s.name_vector @@ t2 THEN 2 ELSE 3 END AS tier
        FROM sites s WHERE s.status = 'live' AND (s.listed_at, s.id) < (pos_at, pos_id)
        ORDER BY s.listed_at DESC, s.id DESC LIMIT window_size
      ) w;
      win_at := pos_at;
      win_id := pos_id;
    END IF;
    n := win_n[k];
    IF n >= need OR win_size < window_size THEN
      -- The window answers: a full page of the tier, or every live tool left.
      hits := hits || ARRAY(SELECT ROW(u.id, u.sort_at, u.tier)::search_hit FROM unnest(win_hits) WITH ORDINALITY AS u(id, sort_at, tier, i) WHERE u.tier = k ORDER BY u.i LIMIT need);
      CONTINUE;
    END IF;
    more := need - n;
    found_hits := NULL;
    IF n > 0 AND n * n >= walk_rule * more THEN
      -- Read on past the window in listing order, a few times as far as the window's density says the rest lies.
      found_hits := ARRAY(
        SELECT ROW(x.id, x.sort_at, x.tier)::search_hit FROM (
          SELECT s.id, s.listed_at AS sort_at,
            CASE WHEN NOT (CASE WHEN t3 IS NULL THEN s.name_vector @@ t2 ELSE s.search_vector @@ t3 END) THEN NULL
              WHEN lower(s.name) = exact THEN 0 WHEN s.name_vector @@ t1 THEN 1 WHEN s.name_vector @@ t2 THEN 2 ELSE 3 END AS tier
          FROM sites s WHERE s.status = 'live' AND (s.listed_at, s.id) < (win_end_at, win_end_id)
          ORDER BY s.listed_at DESC, s.id DESC LIMIT ceil(walk_slack * more * window_size / n)::int
        ) x WHERE x.tier = k LIMIT more);
      IF cardinality(found_hits) = more THEN
        hits := hits || ARRAY(SELECT ROW(u.id, u.sort_at, u.tier)::search_hit FROM unnest(win_hits) WITH ORDINALITY AS u(id, sort_at, tier, i) WHERE u.tier = k ORDER BY u.i) || found_hits;
        CONTINUE;
      END IF;
    END IF;
    -- A GIN lookup of the tier's matches: a sparse tier has few.
    IF k = 3 THEN
      found_hits := ARRAY(
        SELECT ROW(s.id, s.listed_at, 3)::search_hit FROM sites s
        WHERE s.status = 'live' AND s.search_vector @@ t3 AND NOT s.name_vector @@ t2 AND lower(s.name) IS DISTINCT FROM exact
          AND (s.listed_at, s.id) < (pos_at, pos_id)
        ORDER BY s.listed_at + interval '0 s' DESC, s.id DESC LIMIT need);
    ELSE
      found_hits := ARRAY(
        SELECT ROW(s.id, s.listed_at, k)::search_hit FROM sites s
        WHERE s.status = 'live' AND s.name_vector @@ (CASE WHEN k = 1 THEN t1 ELSE t2 END)
          AND NOT coalesce(s.name_vector @@ (CASE WHEN k = 1 THEN NULL ELSE t1 END), false)
          AND lower(s.name) IS DISTINCT FROM exact AND (s.listed_at, s.id) < (pos_at, pos_id)
        ORDER BY s.listed_at + interval '0 s' DESC, s.id DESC LIMIT need);
    END IF;
    hits := hits || found_hits;
  END LOOP;
  RETURN hits;
END $$;
--> statement-breakpoint
-- One page of a text search (typo_cursor false) or of its typo fallback: the fallback runs on a first page whose words
-- match no live tool, and on the pages after it (typo_cursor). It corrects each word that is not a word of a live
-- name to the `corrections` most similar such words (pg_trgm similarity ≥ `min_similarity`, search_words), and ranks
-- names with the closest correction of every word (tier 1) before names with any (tier 2).
CREATE FUNCTION search_page(
  query text, terms text[], whole tsquery, prefix tsquery, category text, category_query tsquery,
  take int, typo_cursor boolean, after_tier int, after_at timestamptz, after_id uuid,
  window_per_tool real, min_window int, walk_rule real, walk_slack real, min_similarity real, corrections int
) RETURNS TABLE (id uuid, sort_at timestamptz, tier int, mode text) LANGUAGE plpgsql
-- VOLATILE (the default): it sets pg_trgm.similarity_threshold for the rest of its transaction (one statement).
-- ROWS: a page is at most 51 rows. With the default estimate (1,000) the planner joined the page to sites by reading
-- all of sites into a hash table once the directory was small enough (10,000 tools: 13 ms of CPU per search, not 1).
ROWS 50
SET plan_cache_mode = force_generic_plan
AS $$
DECLARE
  window_size int;
  hits search_hit[];
  fixes text[];
  closest_text text := '';
  any_text text := '';
  changed boolean := false;
  closest tsquery;
  any_fix tsquery;
BEGIN
  -- The window grows with the square root of the directory (src/directory/search-tiers.ts).
  SELECT greatest(min_window, round(sqrt(window_per_tool * greatest(c.reltuples, 0))))::int INTO window_size
    FROM pg_class c WHERE c.oid = 'sites'::regclass;
  IF NOT typo_cursor THEN
    hits := search_tier_hits(whole, prefix, prefix, lower(query), category, take, after_tier, after_at, after_id,
      window_size, walk_rule, walk_slack);
    IF cardinality(hits) > 0 OR after_tier IS NOT NULL THEN
      RETURN QUERY SELECT u.id, u.sort_at, u.tier, 'text' FROM unnest(hits) WITH ORDINALITY AS u(id, sort_at, tier, i) ORDER BY u.i;
      RETURN;
    END IF;
  END IF;
  PERFORM set_config('pg_trgm.similarity_threshold', min_similarity::text, true);
  FOR k IN 1..cardinality(terms) LOOP
    IF EXISTS (SELECT 1 FROM search_words w WHERE w.word = terms[k]) THEN
      fixes := ARRAY[terms[k]];
    ELSE
      fixes := ARRAY(
        SELECT w.word FROM search_words w WHERE w.word % terms[k]
        ORDER BY similarity(w.word, terms[k]) DESC, w.tools DESC, w.word LIMIT corrections);
      IF cardinality(fixes) = 0 THEN
        fixes := ARRAY[terms[k]];
      END IF;
    END IF;
    changed := changed OR fixes <> ARRAY[terms[k]];
    -- The last word may have been typed halfway: its corrections are prefixes too.
    closest_text := closest_text || CASE WHEN k > 1 THEN ' & ' ELSE '' END || fixes[1] || CASE WHEN k = cardinality(terms) THEN ':*' ELSE '' END;
    any_text := any_text || CASE WHEN k > 1 THEN ' & ' ELSE '' END || '('
      || array_to_string(ARRAY(SELECT f || CASE WHEN k = cardinality(terms) THEN ':*' ELSE '' END FROM unnest(fixes) AS f), ' | ') || ')';
  END LOOP;
  IF NOT changed THEN
    RETURN;
  END IF;
  closest := to_tsquery('english', closest_text);
  any_fix := to_tsquery('english', any_text);
  IF category_query IS NOT NULL THEN
    closest := closest && category_query;
    any_fix := any_fix && category_query;
  END IF;
  hits := search_tier_hits(closest, any_fix, NULL, NULL, category, take,
    CASE WHEN typo_cursor THEN after_tier END, after_at, after_id, window_size, walk_rule, walk_slack);
  RETURN QUERY SELECT u.id, u.sort_at, u.tier, 'typo' FROM unnest(hits) WITH ORDINALITY AS u(id, sort_at, tier, i) ORDER BY u.i;
END $$;
