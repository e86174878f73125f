-- Search that finds what readers mean, computed from counts (docs/mcp-and-search.md "Ranking", "Typos", "Speed"):
--   categories.synonyms and categories.search_terms: a category's name words and synonyms, so `audio` or
--     `transcription` find the tools of Audio (ranked below every text match);
--   search_lexemes: how many live tools hold each lexeme (all text, and the name alone), and '' = all live tools: the
--     search knows before reading anything whether a tier can hold rows and how many, and picks the cheapest way;
--   search_vocabulary: the words of live names AND descriptions, each with its number of live tools: what a typo is
--     corrected to (it replaces search_words, which held the words of names only);
--   search_results: one page of a search, as the app's one statement calls it (it replaces search_page).
-- The counts are kept by statement-level triggers on sites, like drizzle/0025_search_derived_columns.sql did for
-- search_words; nothing else writes them.
CREATE EXTENSION IF NOT EXISTS fuzzystrmatch;
--> statement-breakpoint
ALTER TABLE "categories" ADD COLUMN "synonyms" text[] DEFAULT '{}'::text[] NOT NULL;
--> statement-breakpoint
-- The lexemes a query word must have to find a category: its name's words and its synonyms. IMMUTABLE for the
-- generated column (array_to_string is only STABLE in general; for text[] it never varies).
CREATE FUNCTION search_category_terms(name text, synonyms text[]) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT to_tsvector('english'::regconfig, coalesce(name, '') || ' ' || array_to_string(synonyms, ' '))
$$;
--> statement-breakpoint
ALTER TABLE "categories" ADD COLUMN "search_terms" tsvector GENERATED ALWAYS AS (search_category_terms(name, synonyms)) STORED;
--> statement-breakpoint
-- Synonyms change what a search finds, so cached pages must go (drizzle/0029_listing_version.sql bumps for names).
CREATE TRIGGER categories_synonyms_listing_change AFTER UPDATE OF synonyms ON categories
  FOR EACH STATEMENT EXECUTE FUNCTION listing_bump();
--> statement-breakpoint
-- A few synonyms for the starter set (drizzle/0023_categories_starter_set.sql); an operator's own list stays.
UPDATE categories c SET synonyms = s.synonyms FROM (VALUES
  ('writing', ARRAY['writer', 'copywriting', 'essay', 'grammar', 'paraphrase', 'blog']),
  ('image', ARRAY['picture', 'photo', 'illustration', 'art', 'graphics']),
  ('video', ARRAY['film', 'movie', 'animation', 'clips']),
  ('audio', ARRAY['transcription', 'speech', 'voice', 'music', 'podcast', 'sound']),
  ('code', ARRAY['coding', 'programming', 'developer', 'software']),
  ('chat', ARRAY['chatbot', 'conversation', 'companion']),
  ('productivity', ARRAY['workflow', 'automation', 'calendar', 'tasks']),
  ('marketing', ARRAY['ads', 'advertising', 'seo', 'sales', 'campaign']),
  ('research', ARRAY['papers', 'science', 'academic', 'citations']),
  ('data', ARRAY['analytics', 'spreadsheet', 'sql', 'charts', 'database']),
  ('design', ARRAY['logo', 'mockup', 'prototype', 'interface', 'layout']),
  ('education', ARRAY['learning', 'tutor', 'teaching', 'students', 'courses'])
) AS s(slug, synonyms) WHERE c.slug = s.slug AND c.synonyms = '{}';
--> statement-breakpoint
CREATE TABLE "search_lexemes" (
	"lexeme" text COLLATE "C" PRIMARY KEY NOT NULL,
	"tools" integer NOT NULL,
	"name_tools" integer NOT NULL
) WITH (fillfactor = 80);
--> statement-breakpoint
CREATE TABLE "search_vocabulary" (
	"word" text PRIMARY KEY NOT NULL,
	"tools" integer NOT NULL
) WITH (fillfactor = 80);
--> statement-breakpoint
CREATE INDEX "search_vocabulary_word_trgm_idx" ON "search_vocabulary" USING gin ("word" gin_trgm_ops);
--> statement-breakpoint
-- The words of a listing a typo may be corrected to: lower-cased runs of letters and digits of its name and
-- description, 3 to 64 characters with a letter, no stop word (a query drops those anyway). The one place for the rule.
CREATE FUNCTION search_text_words(name text, description text) RETURNS SETOF text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT DISTINCT w FROM regexp_split_to_table(lower(coalesce(name, '') || ' ' || coalesce(description, '')), '[^[:alnum:]]+') AS w
  WHERE length(w) BETWEEN 3 AND 64 AND w ~ '[[:alpha:]]' AND ts_lexize('english_stem', w) <> '{}'
$$;
--> statement-breakpoint
-- One live row before (sign -1) or after (sign +1) a change of sites.
CREATE TYPE search_count_change AS (sign int, search_vector tsvector, name_vector tsvector, name text, description text);
--> statement-breakpoint
-- Applies the changes of one statement on sites. Rows are locked in key order, so concurrent writers never deadlock
-- here; a count that reaches zero deletes its row ('' counts every live tool and stays).
CREATE FUNCTION search_counts_apply(changes search_count_change[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF cardinality(changes) = 0 THEN
    RETURN;
  END IF;
  INSERT INTO search_lexemes AS s (lexeme, tools, name_tools)
    SELECT l, sum(t)::int, sum(n)::int FROM (
      SELECT unnest(tsvector_to_array(c.search_vector)) AS l, c.sign AS t, 0 AS n FROM unnest(changes) AS c
      UNION ALL SELECT unnest(tsvector_to_array(c.name_vector)), 0, c.sign FROM unnest(changes) AS c
      UNION ALL SELECT '', c.sign, c.sign FROM unnest(changes) AS c
    ) x GROUP BY l HAVING sum(t) <> 0 OR sum(n) <> 0 ORDER BY l
  ON CONFLICT (lexeme) DO UPDATE SET tools = s.tools + excluded.tools, name_tools = s.name_tools + excluded.name_tools;
  DELETE FROM search_lexemes s WHERE s.tools <= 0 AND s.lexeme <> ''
    AND s.lexeme IN (SELECT unnest(tsvector_to_array(c.search_vector)) FROM unnest(changes) AS c WHERE c.sign < 0);
  INSERT INTO search_vocabulary AS v (word, tools)
    SELECT w, sum(c.sign)::int FROM unnest(changes) AS c, search_text_words(c.name, c.description) AS w
    GROUP BY w HAVING sum(c.sign) <> 0 ORDER BY w
  ON CONFLICT (word) DO UPDATE SET tools = v.tools + excluded.tools;
  DELETE FROM search_vocabulary v WHERE v.tools <= 0
    AND v.word IN (SELECT w FROM unnest(changes) AS c, search_text_words(c.name, c.description) AS w WHERE c.sign < 0);
END $$;
--> statement-breakpoint
CREATE FUNCTION search_counts_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM search_counts_apply(ARRAY(SELECT ROW(1, r.search_vector, r.name_vector, r.name, r.metadata->>'description')::search_count_change
    FROM new_rows r WHERE r.status = 'live'));
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Only rows whose search text or liveness changed count: an update of anything else (a crawl, a plan) costs one join.
CREATE FUNCTION search_counts_after_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM search_counts_apply(ARRAY(
    SELECT c.change FROM new_rows n JOIN old_rows o ON o.id = n.id,
      LATERAL (VALUES
        (CASE WHEN n.status = 'live' THEN ROW(1, n.search_vector, n.name_vector, n.name, n.metadata->>'description')::search_count_change END),
        (CASE WHEN o.status = 'live' THEN ROW(-1, o.search_vector, o.name_vector, o.name, o.metadata->>'description')::search_count_change END)
      ) AS c(change)
    WHERE (n.status = 'live' OR o.status = 'live') AND (c.change).sign IS NOT NULL
      AND (n.status IS DISTINCT FROM o.status OR n.search_vector IS DISTINCT FROM o.search_vector
        OR n.name IS DISTINCT FROM o.name OR n.metadata->>'description' IS DISTINCT FROM o.metadata->>'description')));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION search_counts_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM search_counts_apply(ARRAY(SELECT ROW(-1, r.search_vector, r.name_vector, r.name, r.metadata->>'description')::search_count_change
    FROM old_rows r WHERE r.status = 'live'));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER sites_search_counts_insert AFTER INSERT ON sites REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_counts_after_insert();
--> statement-breakpoint
CREATE TRIGGER sites_search_counts_update AFTER UPDATE ON sites REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_counts_after_update();
--> statement-breakpoint
CREATE TRIGGER sites_search_counts_delete AFTER DELETE ON sites REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_counts_after_delete();
--> statement-breakpoint
INSERT INTO search_lexemes (lexeme, tools, name_tools)
  SELECT l, sum(t)::int, sum(n)::int FROM (
    SELECT unnest(tsvector_to_array(s.search_vector)) AS l, 1 AS t, 0 AS n FROM sites s WHERE s.status = 'live'
    UNION ALL SELECT unnest(tsvector_to_array(s.name_vector)), 0, 1 FROM sites s WHERE s.status = 'live'
  ) x GROUP BY l;
--> statement-breakpoint
INSERT INTO search_lexemes (lexeme, tools, name_tools)
  SELECT '', count(*)::int, count(*)::int FROM sites s WHERE s.status = 'live';
--> statement-breakpoint
INSERT INTO search_vocabulary (word, tools)
  SELECT w, count(*)::int FROM sites s, search_text_words(s.name, s.metadata->>'description') AS w WHERE s.status = 'live' GROUP BY w;
--> statement-breakpoint
-- search_words (names only) is replaced by search_vocabulary; search_page by search_results below.
DROP TRIGGER sites_search_words_insert ON sites;
--> statement-breakpoint
DROP TRIGGER sites_search_words_update ON sites;
--> statement-breakpoint
DROP TRIGGER sites_search_words_delete ON sites;
--> statement-breakpoint
DROP FUNCTION search_words_after_insert();
--> statement-breakpoint
DROP FUNCTION search_words_after_update();
--> statement-breakpoint
DROP FUNCTION search_words_after_delete();
--> statement-breakpoint
DROP FUNCTION search_words_apply(jsonb);
--> statement-breakpoint
DROP FUNCTION search_name_words(text);
--> statement-breakpoint
DROP TABLE search_words;
--> statement-breakpoint
DROP FUNCTION search_page(text, text[], tsquery, tsquery, text, tsquery, int, boolean, int, timestamptz, uuid, real, int, real, real, real, int);
--> statement-breakpoint
DROP FUNCTION search_tier_hits(tsquery, tsquery, tsquery, text, text, int, int, timestamptz, uuid, int, real, real);
--> statement-breakpoint
-- The ranked rows of one search, `take` of them after the previous page's last row (after_tier NULL: a first page),
-- as search_hit (id, sort_at, tier). Tiers (docs/mcp-and-search.md "Ranking"): 0 the name is `exact`; 1 every word a
-- whole word of the name; 2 every word in the name, the last perhaps typed halfway; 3 every word in the name or the
-- description; 4 every word there or naming one of the tool's categories (a word of the category's name, or a
-- synonym). Newest first within a tier. Each tier's rows come from the cheapest place, chosen from search_lexemes' counts before anything is
-- read (src/directory/search-plan.ts explains the numbers): none at all when a count says the tier is empty; a GIN
-- lookup of its matches when they are few; else the newest live tools in listing order (index-only, each given its
-- tier), read only as far as the tier's density says, with a lookup after all when the rows read show it sparse.
CREATE FUNCTION search_hits(
  terms text[], exact text, category text, take int,
  after_tier int, after_at timestamptz, after_id uuid,
  walk_cost real, walk_slack real, first_walk int, max_walk int
) RETURNS search_hit[] LANGUAGE plpgsql STABLE
-- Each step is planned once per session: the plans hold for any words (a lookup sorts its few matches by an
-- expression no index holds, so it never walks the listing index hoping for matches).
SET plan_cache_mode = force_generic_plan
-- A stop word makes an empty tsquery, and PostgreSQL says so in a NOTICE: not the caller's business.
SET client_min_messages = warning
AS $$
DECLARE
  n_terms int := cardinality(terms);
  total int;
  filter_tools int;
  positions int[];
  lexes text[];
  tools int[];
  names int[];
  whole_names int[];
  cat_queries text[];
  cat_counts int[];
  filter_query tsquery;
  w tsquery;
  p tsquery;
  t1 tsquery := ''; t2 tsquery := ''; t3 tsquery := ''; t4 tsquery := '';
  has_words boolean := false;
  has_wide boolean := false;
  -- Upper bounds of the matches of each tier's condition (tiers 1 to 4), from the counts.
  u int[] := ARRAY[2147483647, 2147483647, 2147483647, 2147483647];
  last_tier int;
  hits search_hit[] := '{}';
  found search_hit[];
  pos_at timestamptz;
  pos_id uuid;
  need int;
  n int;
  est real;
  to_walk real;
  step int;
  -- The frontier: the newest live tools from one position, read in listing order, each with its tier; up to `take`
  -- rows kept per tier.
  fr_at timestamptz;
  fr_id uuid;
  fr_rows int;
  fr_done boolean;
  fr_end_at timestamptz;
  fr_end_id uuid;
  fr_n int[];
  fr_hits search_hit[];
  c_rows int; c1 int; c2 int; c3 int; c4 int;
  c_hits search_hit[];
  c_end_at timestamptz;
  c_end_id uuid;
BEGIN
  -- Every count the plan needs, in one statement: live tools in all and in `category`; per word its lexeme (none for a
  -- stop word), the live tools holding it (in all and in names; the last word: any lexeme it begins, at most 200 of
  -- them counted, more meaning "many") and the categories it names.
  SELECT (SELECT l.tools FROM search_lexemes l WHERE l.lexeme = ''),
    (SELECT c.live_tools FROM categories c WHERE c.slug = category),
    coalesce(array_agg(x.k ORDER BY x.k), '{}'), coalesce(array_agg(x.lex ORDER BY x.k), '{}'), coalesce(array_agg(x.tools ORDER BY x.k), '{}'),
    coalesce(array_agg(x.names ORDER BY x.k), '{}'), coalesce(array_agg(x.whole_names ORDER BY x.k), '{}'),
    coalesce(array_agg(x.cat_query ORDER BY x.k), '{}'), coalesce(array_agg(x.cat_tools ORDER BY x.k), '{}')
  INTO total, filter_tools, positions, lexes, tools, names, whole_names, cat_queries, cat_counts
  FROM (
    SELECT t.k, t.lex,
      CASE WHEN t.k < n_terms THEN coalesce(l.tools, 0) WHEN pre.n = 200 THEN 2147483647 ELSE pre.tools END AS tools,
      CASE WHEN t.k < n_terms THEN coalesce(l.name_tools, 0) WHEN pre.n = 200 THEN 2147483647 ELSE pre.names END AS names,
      coalesce(l.name_tools, 0) AS whole_names, cat.q AS cat_query, cat.n AS cat_tools
    FROM (SELECT u.k, (tsvector_to_array(to_tsvector('english', u.term)))[1] AS lex FROM unnest(terms) WITH ORDINALITY AS u(term, k)) t
    LEFT JOIN search_lexemes l ON l.lexeme = t.lex
    LEFT JOIN LATERAL (SELECT coalesce(sum(y.tools), 0)::int AS tools, coalesce(sum(y.name_tools), 0)::int AS names, count(*) AS n FROM (
        SELECT m.tools, m.name_tools FROM search_lexemes m WHERE t.k = n_terms AND m.lexeme >= t.lex AND m.lexeme < t.lex || chr(1114111) LIMIT 200
      ) y) pre ON true
    LEFT JOIN LATERAL (SELECT string_agg(quote_literal('#' || c.slug), ' | ') AS q, coalesce(sum(c.live_tools), 0)::int AS n
      FROM categories c WHERE c.search_terms @@ quote_literal(t.lex)::tsquery) cat ON true
    WHERE t.lex IS NOT NULL
  ) x;
  total := greatest(coalesce(total, 0), 1);
  IF category IS NOT NULL THEN
    filter_query := quote_literal('#' || category)::tsquery;
    u := array_fill(coalesce(filter_tools, 0), ARRAY[4]);
  END IF;
  FOR k IN 1..cardinality(lexes) LOOP
    has_words := true;
    -- The lexeme as it is (stemming it again could change it); the last word of the query may be typed halfway.
    w := quote_literal(lexes[k])::tsquery;
    p := CASE WHEN positions[k] = n_terms THEN (quote_literal(lexes[k]) || ':*')::tsquery ELSE w END;
    t1 := t1 && w;
    t2 := t2 && p;
    IF cat_queries[k] IS NOT NULL THEN
      has_wide := true;
      t4 := t4 && (p || cat_queries[k]::tsquery);
    ELSE
      t4 := t4 && p;
    END IF;
    u[1] := least(u[1], whole_names[k]);
    u[2] := least(u[2], names[k]);
    u[3] := least(u[3], tools[k]);
    u[4] := least(u[4], tools[k]::bigint + cat_counts[k])::int;
  END LOOP;
  t3 := t2;
  IF NOT has_words THEN
    u := ARRAY[0, 0, 0, 0];
  END IF;
  IF NOT has_wide THEN
    -- No word names a category: tier 4 would be tier 3 again.
    u[4] := 0;
  END IF;
  IF filter_query IS NOT NULL THEN
    t1 := t1 && filter_query;
    t2 := t2 && filter_query;
    t3 := t3 && filter_query;
    t4 := t4 && filter_query;
  END IF;
  last_tier := 4;

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
    CONTINUE WHEN u[k] = 0;
    -- The tier the previous page ended in continues from that row; later tiers start from the newest tool.
    IF k = after_tier THEN
      pos_at := after_at;
      pos_id := after_id;
    ELSE
      pos_at := 'infinity';
      pos_id := 'ffffffff-ffff-ffff-ffff-ffffffffffff';
    END IF;
    IF fr_at IS DISTINCT FROM pos_at OR fr_id IS DISTINCT FROM pos_id THEN
      fr_at := pos_at;
      fr_id := pos_id;
      fr_rows := 0;
      fr_done := false;
      fr_end_at := pos_at;
      fr_end_id := pos_id;
      fr_n := ARRAY[0, 0, 0, 0];
      fr_hits := '{}';
    END IF;
    LOOP
      n := fr_n[k];
      EXIT WHEN n >= need OR fr_done;
      -- What reading on would take, against what a lookup would fetch: from the counts alone before anything is read,
      -- then from the density of the rows read.
      IF fr_rows = 0 THEN
        est := u[k];
        to_walk := need::real * total / u[k];
      ELSE
        est := least(u[k]::real, greatest(n, 1)::real * total / fr_rows);
        to_walk := (need - n)::real * fr_rows / greatest(n, 0.5);
      END IF;
      -- Before anything is read the counts are bounds (a word's count exactly, several words' at most the least), and
      -- reading on is chosen when it costs less at those bounds; after, the density read is a sample, so reading on
      -- must cost clearly less (walk_slack).
      EXIT WHEN to_walk * walk_cost * CASE WHEN fr_rows = 0 THEN 1 ELSE walk_slack END > est OR fr_rows >= max_walk;
      step := least(greatest(first_walk, ceil(to_walk * 1.25)::int), max_walk - fr_rows);
      SELECT count(*)::int,
        count(*) FILTER (WHERE x.tier = 1)::int, count(*) FILTER (WHERE x.tier = 2)::int,
        count(*) FILTER (WHERE x.tier = 3)::int, count(*) FILTER (WHERE x.tier = 4)::int,
        coalesce((array_agg(ROW(x.id, x.sort_at, x.tier)::search_hit) FILTER (WHERE x.tier = 1))[1:take - fr_n[1]], '{}')
          || coalesce((array_agg(ROW(x.id, x.sort_at, x.tier)::search_hit) FILTER (WHERE x.tier = 2))[1:take - fr_n[2]], '{}')
          || coalesce((array_agg(ROW(x.id, x.sort_at, x.tier)::search_hit) FILTER (WHERE x.tier = 3))[1:take - fr_n[3]], '{}')
          || coalesce((array_agg(ROW(x.id, x.sort_at, x.tier)::search_hit) FILTER (WHERE x.tier = 4))[1:take - fr_n[4]], '{}'),
        (array_agg(x.sort_at) FILTER (WHERE x.rn = step))[1],
        (array_agg(x.id) FILTER (WHERE x.rn = step))[1]
      INTO c_rows, c1, c2, c3, c4, c_hits, c_end_at, c_end_id
      FROM (
        -- array_agg keeps the order rows arrive in: this subquery's, the listing order.
        SELECT s.id, s.listed_at AS sort_at, row_number() OVER (ORDER BY s.listed_at DESC, s.id DESC) AS rn,
          CASE WHEN NOT s.search_vector @@ t4 THEN NULL WHEN lower(s.name) = exact THEN 0
            WHEN s.name_vector @@ t1 THEN 1 WHEN s.name_vector @@ t2 THEN 2 WHEN s.search_vector @@ t3 THEN 3 ELSE 4 END AS tier
        FROM sites s WHERE s.status = 'live' AND (s.listed_at, s.id) < (fr_end_at, fr_end_id)
        ORDER BY s.listed_at DESC, s.id DESC LIMIT step
      ) x;
      fr_rows := fr_rows + c_rows;
      fr_n := ARRAY[fr_n[1] + c1, fr_n[2] + c2, fr_n[3] + c3, fr_n[4] + c4];
      fr_hits := fr_hits || c_hits;
      IF c_rows < step THEN
        fr_done := true;
      ELSE
        fr_end_at := c_end_at;
        fr_end_id := c_end_id;
      END IF;
    END LOOP;
    found := ARRAY(SELECT ROW(h.id, h.sort_at, h.tier)::search_hit FROM unnest(fr_hits) WITH ORDINALITY AS h(id, sort_at, tier, i)
      WHERE h.tier = k ORDER BY h.i LIMIT need);
    IF n < need AND NOT fr_done THEN
      -- A GIN lookup of the tier's matches past the rows read (a sparse tier has few).
      need := need - cardinality(found);
      IF k = 1 AND fr_rows = 0 AND pos_at = 'infinity' AND u[2] <= 2 * u[1] + need THEN
        -- Names with every word, whole or the last begun: tiers 1 and 2 in one lookup when the second adds few rows.
        found := ARRAY(SELECT ROW(x.id, x.sort_at, x.tier)::search_hit FROM (
            SELECT s.id, s.listed_at AS sort_at, CASE WHEN s.name_vector @@ t1 THEN 1 ELSE 2 END AS tier FROM sites s
            WHERE s.status = 'live' AND s.name_vector @@ t2 AND lower(s.name) IS DISTINCT FROM exact AND (s.listed_at, s.id) < (pos_at, pos_id)
          ) x ORDER BY x.tier, x.sort_at + interval '0 s' DESC, x.id DESC LIMIT need);
        hits := hits || found;
        -- Tier 2 is done unless the rows stopped at tier 1 (then the page is full anyway).
        u[2] := 0;
        CONTINUE;
      ELSIF k = 1 THEN
        found := found || ARRAY(SELECT ROW(s.id, s.listed_at, 1)::search_hit FROM sites s
          WHERE s.status = 'live' AND s.name_vector @@ t1 AND lower(s.name) IS DISTINCT FROM exact AND (s.listed_at, s.id) < (fr_end_at, fr_end_id)
          ORDER BY s.listed_at + interval '0 s' DESC, s.id DESC LIMIT need);
      ELSIF k = 2 THEN
        found := found || ARRAY(SELECT ROW(s.id, s.listed_at, 2)::search_hit FROM sites s
          WHERE s.status = 'live' AND s.name_vector @@ t2 AND NOT s.name_vector @@ t1 AND lower(s.name) IS DISTINCT FROM exact
            AND (s.listed_at, s.id) < (fr_end_at, fr_end_id)
          ORDER BY s.listed_at + interval '0 s' DESC, s.id DESC LIMIT need);
      ELSIF k = 3 THEN
        found := found || ARRAY(SELECT ROW(s.id, s.listed_at, 3)::search_hit FROM sites s
          WHERE s.status = 'live' AND s.search_vector @@ t3 AND NOT s.name_vector @@ t2 AND lower(s.name) IS DISTINCT FROM exact
            AND (s.listed_at, s.id) < (fr_end_at, fr_end_id)
          ORDER BY s.listed_at + interval '0 s' DESC, s.id DESC LIMIT need);
      ELSE
        found := found || ARRAY(SELECT ROW(s.id, s.listed_at, 4)::search_hit FROM sites s
          WHERE s.status = 'live' AND s.search_vector @@ t4 AND NOT s.search_vector @@ t3 AND lower(s.name) IS DISTINCT FROM exact
            AND (s.listed_at, s.id) < (fr_end_at, fr_end_id)
          ORDER BY s.listed_at + interval '0 s' DESC, s.id DESC LIMIT need);
      END IF;
    END IF;
    hits := hits || found;
  END LOOP;
  RETURN hits;
END $$;
--> statement-breakpoint
-- What a query's words may have been meant as, when they find nothing (docs/mcp-and-search.md "Typos"): each word of
-- 4 letters or more that no live tool holds (and that names no category) is corrected to the words of live names and
-- descriptions (search_vocabulary) and of category names and synonyms within one edit (4 to 7 letters) or two (8 or
-- more): a letter added, dropped or replaced, or two neighbouring letters swapped (one edit on its own). The closest
-- come first, then the more common. Returns up to `attempts` corrected queries (the words joined by spaces), the
-- closest first: attempt i takes every word's i-th correction (its last one when it has fewer). Empty: nothing to
-- correct.
CREATE FUNCTION search_corrections(terms text[], attempts int) RETURNS text[] LANGUAGE plpgsql STABLE
SET plan_cache_mode = force_generic_plan
SET client_min_messages = warning
AS $$
DECLARE
  n_terms int := cardinality(terms);
  fixes text[] := '{}';
  counts int[] := '{}';
  term text;
  len int;
  lex text;
  known boolean;
  swaps text[];
  cand text[];
  changed boolean := false;
  result text[] := '{}';
  one text;
BEGIN
  FOR k IN 1..coalesce(n_terms, 0) LOOP
    term := terms[k];
    len := char_length(term);
    cand := NULL;
    IF len >= 4 AND term ~ '[[:alpha:]]' THEN
      lex := (tsvector_to_array(to_tsvector('english', term)))[1];
      -- Known: a lexeme some live tool holds (the last word: begins one), or a category's word.
      known := lex IS NULL
        OR (k < n_terms AND EXISTS (SELECT 1 FROM search_lexemes l WHERE l.lexeme = lex))
        OR (k = n_terms AND EXISTS (SELECT 1 FROM search_lexemes l WHERE l.lexeme >= lex AND l.lexeme < lex || chr(1114111)))
        OR EXISTS (SELECT 1 FROM categories c WHERE c.search_terms @@ quote_literal(lex)::tsquery);
      IF NOT known THEN
        swaps := ARRAY(SELECT overlay(term PLACING substr(term, i + 1, 1) || substr(term, i, 1) FROM i FOR 2)
          FROM generate_series(1, len - 1) AS i WHERE substr(term, i, 1) <> substr(term, i + 1, 1));
        FOR edits IN 1..CASE WHEN len >= 8 THEN 2 ELSE 1 END LOOP
          -- Every word within `edits` insertions, deletions or replacements shares at least m − 3·edits of the
          -- word's m distinct trigrams and has at most len + 1 + edits, so its similarity is at least this: the
          -- trigram index finds them all (src/directory/search-typo.ts). Swaps are looked up by name.
          PERFORM set_config('pg_trgm.similarity_threshold',
            greatest(0.01, (cardinality(show_trgm(term)) - 3 * edits)::real / (len + 1 + 4 * edits) - 0.001)::text, true);
          cand := ARRAY(
            SELECT x.word FROM (
              SELECT c.word, max(c.tools) AS tools,
                min(CASE WHEN c.word = ANY (swaps) THEN 1 ELSE levenshtein_less_equal(c.word, term, edits) END) AS dist
              FROM (
                SELECT v.word, v.tools FROM search_vocabulary v WHERE v.word % term OR v.word = ANY (swaps)
                UNION ALL
                SELECT w, c.live_tools FROM categories c,
                  regexp_split_to_table(lower(c.name || ' ' || array_to_string(c.synonyms, ' ')), '[^[:alnum:]]+') AS w
                WHERE char_length(w) >= 3
              ) c GROUP BY c.word
            ) x WHERE x.dist <= edits ORDER BY x.dist, x.tools DESC, x.word LIMIT attempts);
          EXIT WHEN cardinality(cand) > 0;
        END LOOP;
      END IF;
    END IF;
    IF cardinality(cand) > 0 THEN
      changed := true;
    ELSE
      cand := ARRAY[term];
    END IF;
    -- Every word's corrections padded to `attempts` with its last one, so fixes is a rectangle (word k at k·attempts).
    fixes := fixes || (cand || array_fill(cand[cardinality(cand)], ARRAY[attempts - cardinality(cand)]));
  END LOOP;
  IF NOT changed THEN
    RETURN '{}';
  END IF;
  FOR i IN 1..attempts LOOP
    one := array_to_string(ARRAY(SELECT fixes[(k - 1) * attempts + i] FROM generate_series(1, n_terms) AS k), ' ');
    IF NOT one = ANY (result) THEN
      result := result || one;
    END IF;
  END LOOP;
  RETURN result;
END $$;
--> statement-breakpoint
-- One page of a search, as src/directory/search-statements.ts reads it: rows in order (`ord`), each a result (`mode`
-- 'text', or 'typo' when the words had to be corrected), a tool offered because nothing matched ('fallback'), or the
-- last row ('meta', no tool) with what the page says besides its tools: the names of every category, the corrected
-- query and which attempt found it, the closest categories of an empty answer, an unknown category filter.
-- The typo fallback runs on a first page whose words find nothing (when `correct`), and on the later pages of a
-- corrected search (`typo_attempt`: the attempt its first page used).
CREATE FUNCTION search_results(
  query text, terms text[], category text, take int, correct boolean, typo_attempt int,
  after_tier int, after_at timestamptz, after_id uuid,
  walk_cost real, walk_slack real, first_walk int, max_walk int,
  attempts int, fallback_tools int, fallback_categories int
) RETURNS TABLE (ord int, id uuid, sort_at timestamptz, tier int, mode text, meta jsonb) LANGUAGE plpgsql STABLE
-- ROWS: a page is at most 51 rows and a few more. With the default estimate (1,000) the planner joined the page to sites
-- by reading all of sites into a hash table once the directory was small enough.
ROWS 60
SET plan_cache_mode = force_generic_plan
SET client_min_messages = warning
AS $$
DECLARE
  hits search_hit[] := '{}';
  fixes text[];
  used int;
  offered search_hit[] := '{}';
  closest jsonb;
BEGIN
  IF category IS NOT NULL AND NOT EXISTS (SELECT 1 FROM categories c WHERE c.slug = category) THEN
    RETURN QUERY SELECT 1, NULL::uuid, NULL::timestamptz, NULL::int, 'meta'::text, jsonb_build_object('unknown_category', true);
    RETURN;
  END IF;
  IF typo_attempt IS NULL THEN
    hits := search_hits(terms, lower(query), category, take, after_tier, after_at, after_id, walk_cost, walk_slack, first_walk, max_walk);
  END IF;
  IF typo_attempt IS NOT NULL OR (correct AND after_tier IS NULL AND cardinality(hits) = 0) THEN
    fixes := search_corrections(terms, attempts);
    FOR i IN coalesce(typo_attempt, 1)..least(coalesce(typo_attempt, attempts), cardinality(fixes)) LOOP
      hits := search_hits(string_to_array(fixes[i], ' '), fixes[i], category, take,
        after_tier, after_at, after_id, walk_cost, walk_slack, first_walk, max_walk);
      IF cardinality(hits) > 0 THEN
        used := i;
        EXIT;
      END IF;
    END LOOP;
  END IF;
  IF after_tier IS NULL AND cardinality(hits) = 0 THEN
    -- Nothing matches: the newest tools (of the category, if it has any) and the categories closest to the words.
    offered := ARRAY(SELECT ROW(s.id, s.listed_at, NULL)::search_hit FROM sites s
      WHERE s.status = 'live' AND (category IS NULL OR s.search_vector @@ quote_literal('#' || category)::tsquery)
      ORDER BY s.listed_at DESC, s.id DESC LIMIT fallback_tools);
    IF cardinality(offered) = 0 AND category IS NOT NULL THEN
      offered := ARRAY(SELECT ROW(s.id, s.listed_at, NULL)::search_hit FROM sites s WHERE s.status = 'live'
        ORDER BY s.listed_at DESC, s.id DESC LIMIT fallback_tools);
    END IF;
    closest := (SELECT coalesce(jsonb_agg(jsonb_build_object('slug', x.slug, 'name', x.name, 'tool_count', x.live_tools)
        ORDER BY x.score DESC, x.live_tools DESC, lower(x.name), x.slug), '[]')
      FROM (
        SELECT c.slug, c.name, c.live_tools, coalesce((SELECT max(CASE WHEN w = t THEN 1 ELSE similarity(w, t) END)
          FROM unnest(terms) AS t, regexp_split_to_table(lower(c.name || ' ' || array_to_string(c.synonyms, ' ')), '[^[:alnum:]]+') AS w
          WHERE w <> ''), 0) AS score
        FROM categories c WHERE c.live_tools > 0
        ORDER BY 4 DESC, c.live_tools DESC, lower(c.name), c.slug LIMIT fallback_categories
      ) x);
  END IF;
  RETURN QUERY
    SELECT h.i::int, h.id, h.sort_at, h.tier, CASE WHEN used IS NULL THEN 'text' ELSE 'typo' END
      , NULL::jsonb FROM unnest(hits) WITH ORDINALITY AS h(id, sort_at, tier, i)
    UNION ALL
    SELECT (cardinality(hits) + h.i)::int, h.id, h.sort_at, NULL::int, 'fallback', NULL::jsonb FROM unnest(offered) WITH ORDINALITY AS h(id, sort_at, tier, i)
    UNION ALL
    SELECT cardinality(hits) + cardinality(offered) + 1, NULL::uuid, NULL::timestamptz, NULL::int, 'meta',
      jsonb_strip_nulls(jsonb_build_object(
        'categories', (SELECT coalesce(jsonb_object_agg(c.slug, c.name), '{}') FROM categories c),
        'corrected', fixes[used], 'attempt', used, 'closest_categories', closest));
END $$;
