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
-- Every lexeme of every live tool's search_vector (its text and its category lexemes), in listing order: a word's newest
-- tools are the first entries of its range, so a page of one word, or of words that occur together, reads about as many
-- entries as it shows instead of fetching every match (GIN) or reading every tool in listing order until enough match.
-- `in_name`: the lexeme is in the name too (the name tiers read those entries alone, by the partial index).
CREATE TABLE "search_postings" (
	"lexeme" text COLLATE "C" NOT NULL,
	"listed_at" timestamp with time zone NOT NULL,
	"site_id" uuid NOT NULL,
	"in_name" boolean NOT NULL,
	CONSTRAINT "search_postings_pkey" PRIMARY KEY ("lexeme", "listed_at", "site_id")
);
--> statement-breakpoint
CREATE INDEX "search_postings_name_idx" ON "search_postings" ("lexeme", "listed_at", "site_id") WHERE "in_name";
--> statement-breakpoint
-- Index-only scans need the visibility map: vacuum after 1% of the rows changed, like sites (drizzle/0025).
ALTER TABLE search_postings SET (autovacuum_vacuum_scale_factor = 0.01, autovacuum_vacuum_insert_scale_factor = 0.01);
--> statement-breakpoint
-- The words of a listing a typo may be corrected to: lower-cased runs of letters and digits of its name and
-- description, 3 to 64 characters with a letter, no stop word (a query drops those anyway). The one place for the rule.
CREATE FUNCTION search_text_words(name text, description text) RETURNS SETOF text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT DISTINCT w FROM regexp_split_to_table(lower(coalesce(name, '') || ' ' || coalesce(description, '')), '[^[:alnum:]]+') AS w
  WHERE length(w) BETWEEN 3 AND 64 AND w ~ '[[:alpha:]]' AND ts_lexize('english_stem', w) <> '{}'
$$;
--> statement-breakpoint
-- One live row before (sign -1) or after (sign +1) a change of sites.
CREATE TYPE search_count_change AS (sign int, id uuid, listed_at timestamptz, search_vector tsvector, name_vector tsvector, name text, description text);
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
  -- Postings: the old row's entries go, the new row's come (an unchanged lexeme of an unchanged listing time is both).
  DELETE FROM search_postings p USING (
      SELECT unnest(tsvector_to_array(c.search_vector)) AS lexeme, c.listed_at, c.id FROM unnest(changes) AS c WHERE c.sign < 0
    ) d WHERE p.lexeme = d.lexeme AND p.listed_at = d.listed_at AND p.site_id = d.id;
  INSERT INTO search_postings (lexeme, listed_at, site_id, in_name)
    SELECT l, c.listed_at, c.id, l = ANY (tsvector_to_array(c.name_vector))
    FROM unnest(changes) AS c, unnest(tsvector_to_array(c.search_vector)) AS l WHERE c.sign > 0
    ORDER BY 1, 2, 3;
END $$;
--> statement-breakpoint
CREATE FUNCTION search_counts_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM search_counts_apply(ARRAY(SELECT ROW(1, r.id, r.listed_at, r.search_vector, r.name_vector, r.name, r.metadata->>'description')::search_count_change
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
        (CASE WHEN n.status = 'live' THEN ROW(1, n.id, n.listed_at, n.search_vector, n.name_vector, n.name, n.metadata->>'description')::search_count_change END),
        (CASE WHEN o.status = 'live' THEN ROW(-1, o.id, o.listed_at, o.search_vector, o.name_vector, o.name, o.metadata->>'description')::search_count_change END)
      ) AS c(change)
    WHERE (n.status = 'live' OR o.status = 'live') AND (c.change).sign IS NOT NULL
      AND (n.status IS DISTINCT FROM o.status OR n.search_vector IS DISTINCT FROM o.search_vector OR n.listed_at IS DISTINCT FROM o.listed_at
        OR n.name IS DISTINCT FROM o.name OR n.metadata->>'description' IS DISTINCT FROM o.metadata->>'description')));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION search_counts_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM search_counts_apply(ARRAY(SELECT ROW(-1, r.id, r.listed_at, r.search_vector, r.name_vector, r.name, r.metadata->>'description')::search_count_change
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
INSERT INTO search_postings (lexeme, listed_at, site_id, in_name)
  SELECT l, s.listed_at, s.id, l = ANY (tsvector_to_array(s.name_vector))
  FROM sites s, unnest(tsvector_to_array(s.search_vector)) AS l WHERE s.status = 'live';
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
-- A category a word names, with its live tools.
CREATE TYPE search_named AS (slug text, tools int);
--> statement-breakpoint
-- The ranked rows of one search, `take` of them after the previous page's last row (after_tier NULL: a first page),
-- as search_hit (id, sort_at, tier). Tiers (docs/mcp-and-search.md "Ranking"): 0 the name is `exact`; 1 every word a
-- whole word of the name; 2 every word in the name, the last perhaps typed halfway; 3 every word in the name or the
-- description; 4 every word there or naming one of the tool's categories (a word of the category's name, or a
-- synonym). Newest first within a tier. Each tier's rows come from the cheapest place, chosen from search_lexemes'
-- counts before anything is read (src/directory/search-plan.ts explains the numbers):
--   - none at all when a count says the tier is empty;
--   - the postings of its rarest word (search_postings, in listing order), each checked against the tier, when that word
--     is one lexeme: a page reads about as many postings as it shows when the words occur together;
--   - else the newest live tools in listing order (index-only, each given its tier), read only as far as the tier's
--     density says;
--   - a GIN lookup of the matches past what was read, when they are few or what was read shows them sparse.
CREATE FUNCTION search_hits(
  terms text[], exact text, category text, take int,
  after_tier int, after_at timestamptz, after_id uuid,
  walk_cost real, walk_slack real, first_walk int, probe_walk int, max_walk int, postings_batch int, posting_cost real
) RETURNS search_hit[] LANGUAGE plpgsql STABLE
-- Called by search_results, whose settings it runs under (a SET here would be saved and restored on every call):
-- generic plans, planned once per session (they hold for any words: a lookup sorts its few matches by an expression no
-- index holds, so it never walks the listing index hoping for matches), and no NOTICE for a stop word's empty tsquery.
AS $$
DECLARE
  n_terms int := cardinality(terms);
  lex text;
  one_tools int;
  one_names int;
  one_begun text[];
  named search_named[];
  total int;
  filter_tools int;
  positions int[];
  lexes text[];
  tools int[];
  names int[];
  whole_tools int[];
  whole_names int[];
  cat_queries text[];
  cat_counts int[];
  cat_single text[];
  begun text[];
  begun_many boolean := false;
  filter_query tsquery;
  w tsquery;
  p tsquery;
  t1 tsquery := ''; t2 tsquery := ''; t3 tsquery := ''; t4 tsquery := '';
  has_words boolean := false;
  has_wide boolean := false;
  -- Upper bounds of the matches of each tier's condition (tiers 1 to 4), from the counts.
  u int[] := ARRAY[2147483647, 2147483647, 2147483647, 2147483647];
  hits search_hit[] := '{}';
  found search_hit[];
  pos_at timestamptz;
  pos_id uuid;
  need int;
  n int;
  est real;
  to_walk real;
  step int;
  -- The tier's rarest single lexeme (its postings are read) and how many live tools hold it.
  drv text;
  drv_count int;
  drv_names boolean;
  alt text;
  alt_count int;
  skip_name boolean;
  scanned int;
  batch int;
  verified int;
  -- Where a lookup takes over: the rows before this position are known.
  below_at timestamptz;
  below_id uuid;
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
  c_full boolean; c1 int; c2 int; c3 int; c4 int;
  c_hits search_hit[];
  c_end_at timestamptz;
  c_end_id uuid;
BEGIN
  -- What the plan needs, in few statements (each statement costs more to start than these lookups cost to run): live
  -- tools in all and in `category`, and tier 0 (the name is the query: a lookup of the lower(name) index).
  SELECT (SELECT l.tools FROM search_lexemes l WHERE l.lexeme = ''),
    (SELECT c.live_tools FROM categories c WHERE c.slug = category),
    CASE WHEN exact IS NOT NULL AND coalesce(after_tier, 0) = 0 THEN ARRAY(
      SELECT ROW(s.id, s.listed_at, 0)::search_hit FROM sites s
      WHERE s.status = 'live' AND lower(s.name) = exact AND (category IS NULL OR s.category_slugs @> ARRAY[category])
        AND (s.listed_at, s.id) < (CASE WHEN after_tier = 0 THEN after_at ELSE 'infinity' END,
          CASE WHEN after_tier = 0 THEN after_id ELSE 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid END)
      ORDER BY s.listed_at + interval '0 s' DESC, s.id DESC LIMIT take) ELSE '{}' END
  INTO total, filter_tools, hits;
  -- Per word, one statement: its lexeme (none for a stop word), the live tools holding it (in all and in names), the
  -- categories it names (with live tools), and for the last word the lexemes it begins (named when at most 16, more
  -- meaning "many"; their counts summed by one more statement when it begins others than itself).
  positions := '{}'; lexes := '{}'; tools := '{}'; names := '{}'; whole_tools := '{}'; whole_names := '{}';
  cat_queries := '{}'; cat_counts := '{}'; cat_single := '{}';
  FOR i IN 1..coalesce(n_terms, 0) LOOP
    lex := (tsvector_to_array(to_tsvector('english', terms[i])))[1];
    CONTINUE WHEN lex IS NULL;
    SELECT coalesce(l.tools, 0), coalesce(l.name_tools, 0),
      CASE WHEN i = n_terms THEN ARRAY(SELECT m.lexeme FROM search_lexemes m WHERE m.lexeme >= lex AND m.lexeme < lex || chr(1114111) ORDER BY m.lexeme LIMIT 17) END,
      ARRAY(SELECT ROW(c.slug, c.live_tools)::search_named FROM categories c WHERE c.search_terms @@ quote_literal(lex)::tsquery AND c.live_tools > 0 ORDER BY c.slug)
    INTO one_tools, one_names, one_begun, named
    FROM (SELECT 1) AS one LEFT JOIN search_lexemes l ON l.lexeme = lex;
    positions := positions || i;
    lexes := lexes || lex;
    whole_tools := whole_tools || one_tools;
    whole_names := whole_names || one_names;
    IF i < n_terms OR one_begun = ARRAY[lex] THEN
      tools := tools || one_tools;
      names := names || one_names;
      begun := one_begun;
    ELSIF cardinality(one_begun) = 17 THEN
      begun := NULL;
      begun_many := true;
      tools := tools || greatest(total, 1);
      names := names || greatest(total, 1);
    ELSE
      begun := one_begun;
      SELECT coalesce(sum(m.tools), 0)::int, coalesce(sum(m.name_tools), 0)::int INTO one_tools, one_names FROM search_lexemes m WHERE m.lexeme = ANY (begun);
      tools := tools || one_tools;
      names := names || one_names;
    END IF;
    IF cardinality(named) = 0 THEN
      cat_queries := cat_queries || NULL::text;
      cat_counts := cat_counts || 0;
      cat_single := cat_single || NULL::text;
    ELSE
      cat_queries := cat_queries || (SELECT string_agg(quote_literal('#' || (x).slug), ' | ') FROM unnest(named) AS x);
      cat_counts := cat_counts || (SELECT sum((x).tools)::int FROM unnest(named) AS x);
      cat_single := cat_single || CASE WHEN cardinality(named) = 1 THEN '#' || (named[1]).slug END;
    END IF;
  END LOOP;
  total := greatest(coalesce(total, 0), 1);
  IF category IS NOT NULL THEN
    filter_query := quote_literal('#' || category)::tsquery;
    u := array_fill(coalesce(filter_tools, 0), ARRAY[4]);
  END IF;
  FOR k IN 1..cardinality(lexes) LOOP
    has_words := true;
    -- The lexeme as it is (stemming it again could change it); the last word of the query may be typed halfway. A word
    -- typed halfway begins a few lexemes, usually one: they are named, as a GIN index intersects named lexemes fast
    -- where a prefix is gathered whole first (a frequent word's prefix cost 1.7 ms in a pair of words that never meet).
    w := quote_literal(lexes[k])::tsquery;
    p := CASE WHEN positions[k] <> n_terms THEN w
      WHEN cardinality(begun) > 0 THEN (SELECT string_agg(quote_literal(b), ' | ') FROM unnest(begun) AS b)::tsquery
      ELSE (quote_literal(lexes[k]) || ':*')::tsquery END;
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
  -- No word names a category: tier 4 would be tier 3 again. The last word begins only itself: tier 2 is tier 1 again.
  IF NOT has_wide THEN
    u[4] := 0;
  END IF;
  IF positions[cardinality(positions)] = n_terms AND begun = ARRAY[lexes[cardinality(lexes)]] THEN
    u[2] := 0;
  END IF;
  IF filter_query IS NOT NULL THEN
    t1 := t1 && filter_query;
    t2 := t2 && filter_query;
    t3 := t3 && filter_query;
    t4 := t4 && filter_query;
  END IF;

  -- One word, whole, naming no category, on a first page without a filter (the commonest search): tiers 1 and 3 are its
  -- postings in names and its others, newest first, in one statement that reads no tool (tier 2 adds nothing when the
  -- word begins no other lexeme, tier 4 nothing when it names no category).
  IF after_tier IS NULL AND filter_query IS NULL AND cardinality(lexes) = 1 AND u[4] = 0 AND postings_batch > 0
    AND (positions[1] < n_terms OR begun = lexes) THEN
    need := take - cardinality(hits);
    IF need > 0 THEN
      hits := hits || ARRAY(
        SELECT ROW(x.id, x.sort_at, x.tier)::search_hit FROM (
          (SELECT q.site_id AS id, q.listed_at AS sort_at, 1 AS tier FROM search_postings q
            WHERE q.lexeme = lexes[1] AND q.in_name ORDER BY q.listed_at DESC, q.site_id DESC LIMIT need + cardinality(hits))
          UNION ALL
          (SELECT q.site_id, q.listed_at, 3 FROM search_postings q
            WHERE q.lexeme = lexes[1] AND NOT q.in_name ORDER BY q.listed_at DESC, q.site_id DESC LIMIT need)
        ) x WHERE x.id <> ALL (ARRAY(SELECT h.id FROM unnest(hits) AS h)) ORDER BY x.tier, x.sort_at DESC, x.id DESC LIMIT need);
    END IF;
    RETURN hits;
  END IF;

  FOR k IN greatest(coalesce(after_tier, 1), 1)..4 LOOP
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
    found := '{}';
    below_at := NULL;

    -- The tier's rarest word that is one lexeme (or the category filter's lexeme): its postings hold every row of the
    -- tier. Tiers 1 and 2 read the name's postings only.
    drv := NULL;
    drv_count := NULL;
    IF filter_query IS NOT NULL THEN
      drv := '#' || category;
      drv_count := coalesce(filter_tools, 0);
    END IF;
    FOR i IN 1..cardinality(lexes) LOOP
      alt := NULL;
      IF positions[i] = n_terms AND k > 1 THEN
        -- The last word, perhaps typed halfway: one lexeme when it begins only one.
        IF cardinality(begun) = 1 THEN
          alt := begun[1];
          alt_count := CASE WHEN k = 2 THEN names[i] ELSE tools[i] END;
        END IF;
      ELSE
        alt := lexes[i];
        alt_count := CASE WHEN k <= 2 THEN whole_names[i] ELSE whole_tools[i] END;
      END IF;
      IF k = 4 AND cat_queries[i] IS NOT NULL THEN
        -- The word or one of its categories: one lexeme only when the other side holds no live tool.
        IF alt IS NOT NULL AND alt_count = 0 AND cat_single[i] IS NOT NULL THEN
          alt := cat_single[i];
          alt_count := cat_counts[i];
        ELSIF alt IS NOT NULL AND alt_count > 0 AND cat_counts[i] = 0 THEN
          NULL;
        ELSE
          alt := NULL;
        END IF;
      END IF;
      IF alt IS NOT NULL AND (drv_count IS NULL OR alt_count < drv_count) THEN
        drv := alt;
        drv_count := alt_count;
      END IF;
    END LOOP;
    drv_names := k <= 2;
    -- One word, whole: its postings in names belong to the name tiers, so tier 3 reads the others only.
    skip_name := k = 3 AND cardinality(lexes) = 1 AND filter_query IS NULL AND drv = lexes[1] AND u[2] = 0;

    -- A posting costs about as much as posting_cost rows read in listing order (it fetches its tool): the postings win
    -- unless the word is in more than one tool in posting_cost, where reading in order finds the page as soon.
    IF drv IS NOT NULL AND cardinality(lexes) > 1 AND drv_count <= 4 * need THEN
      -- Several words whose rarest is in few tools: a GIN lookup fetches only the tools that hold them all, in one
      -- statement, where reading the postings would read them all and check each.
      below_at := pos_at;
      below_id := pos_id;
    ELSIF drv IS NOT NULL AND postings_batch > 0 AND drv_count::real * posting_cost < total THEN
      scanned := 0;
      verified := 0;
      below_at := pos_at;
      below_id := pos_id;
      batch := least(2 * need, postings_batch);
      LOOP
        -- Each statement reads one index in listing order (the names' partial index, or all postings, perhaps without the
        -- names'), so its plan never depends on the words.
        IF drv_names THEN
          SELECT count(*)::int, coalesce(array_agg(ROW(x.id, x.sort_at, k)::search_hit ORDER BY x.sort_at DESC, x.id DESC) FILTER (WHERE x.tier = k), '{}'),
            min(x.sort_at), (array_agg(x.id ORDER BY x.sort_at, x.id))[1]
          INTO n, c_hits, c_end_at, c_end_id
          FROM (
            SELECT c.listed_at AS sort_at, c.site_id AS id,
              CASE WHEN s.id IS NULL OR NOT s.search_vector @@ t4 THEN NULL WHEN lower(s.name) = exact THEN 0
                WHEN s.name_vector @@ t1 THEN 1 WHEN s.name_vector @@ t2 THEN 2 WHEN s.search_vector @@ t3 THEN 3 ELSE 4 END AS tier
            FROM (
              SELECT q.listed_at, q.site_id FROM search_postings q
              WHERE q.lexeme = drv AND q.in_name AND (q.listed_at, q.site_id) < (below_at, below_id)
              ORDER BY q.listed_at DESC, q.site_id DESC LIMIT batch
            ) c
            LEFT JOIN LATERAL (SELECT s.id, s.name, s.name_vector, s.search_vector FROM sites s WHERE s.id = c.site_id AND s.status = 'live') s ON true
          ) x;
        ELSE
          SELECT count(*)::int, coalesce(array_agg(ROW(x.id, x.sort_at, k)::search_hit ORDER BY x.sort_at DESC, x.id DESC) FILTER (WHERE x.tier = k), '{}'),
            min(x.sort_at), (array_agg(x.id ORDER BY x.sort_at, x.id))[1]
          INTO n, c_hits, c_end_at, c_end_id
          FROM (
            SELECT c.listed_at AS sort_at, c.site_id AS id,
              CASE WHEN s.id IS NULL OR NOT s.search_vector @@ t4 THEN NULL WHEN lower(s.name) = exact THEN 0
                WHEN s.name_vector @@ t1 THEN 1 WHEN s.name_vector @@ t2 THEN 2 WHEN s.search_vector @@ t3 THEN 3 ELSE 4 END AS tier
            FROM (
              SELECT q.listed_at, q.site_id FROM search_postings q
              WHERE q.lexeme = drv AND (q.listed_at, q.site_id) < (below_at, below_id) AND NOT (skip_name AND q.in_name)
              ORDER BY q.listed_at DESC, q.site_id DESC LIMIT batch
            ) c
            LEFT JOIN LATERAL (SELECT s.id, s.name, s.name_vector, s.search_vector FROM sites s WHERE s.id = c.site_id AND s.status = 'live') s ON true
          ) x;
        END IF;
        scanned := scanned + n;
        verified := verified + cardinality(c_hits);
        found := found || c_hits[1:need - cardinality(found)];
        IF n < batch THEN
          -- Every posting read: the tier is complete.
          below_at := NULL;
          EXIT;
        END IF;
        below_at := c_end_at;
        below_id := c_end_id;
        EXIT WHEN cardinality(found) >= need;
        -- Read on while the tier's share of the postings says the rest lies close; else look it up.
        EXIT WHEN (need - cardinality(found))::real * scanned / greatest(verified, 0.5) > 4 * postings_batch;
        batch := least(postings_batch, ceil(1.5 * (need - cardinality(found))::real * scanned / greatest(verified, 0.5))::int);
        batch := greatest(batch, need);
      END LOOP;
      IF below_at IS NOT NULL AND cardinality(found) >= need THEN
        below_at := NULL;
      END IF;
    ELSE
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
        -- then from the density of the rows read (one more match assumed than seen, so a short read that met few
        -- matches by chance does not hand a dense tier to a lookup).
        IF fr_rows = 0 THEN
          est := u[k];
          to_walk := need::real * total / u[k];
        ELSE
          est := least(u[k]::real, (n + 1)::real * total / fr_rows);
          to_walk := (need - n)::real * fr_rows / (n + 1);
        END IF;
        EXIT WHEN to_walk * walk_cost * CASE WHEN fr_rows = 0 THEN 1 ELSE walk_slack END > est OR fr_rows >= max_walk;
        -- A tier of several words may be far sparser than its least frequent word (words that never meet): its first
        -- read is a sample (probe_walk rows) unless the counts already say the page lies closer; reads grow at most
        -- fourfold.
        step := least(greatest(first_walk, ceil(to_walk * 1.25)::int), max_walk - fr_rows,
          CASE WHEN fr_rows = 0 AND cardinality(lexes) > 1 THEN greatest(probe_walk, first_walk) WHEN fr_rows > 0 THEN 4 * fr_rows ELSE max_walk END);
        SELECT coalesce(bool_or(x.rn = step), false),
          count(*) FILTER (WHERE x.tier = 1)::int, count(*) FILTER (WHERE x.tier = 2)::int,
          count(*) FILTER (WHERE x.tier = 3)::int, count(*) FILTER (WHERE x.tier = 4)::int,
          coalesce((array_agg(ROW(x.id, x.sort_at, x.tier)::search_hit) FILTER (WHERE x.tier = 1))[1:take - fr_n[1]], '{}')
            || coalesce((array_agg(ROW(x.id, x.sort_at, x.tier)::search_hit) FILTER (WHERE x.tier = 2))[1:take - fr_n[2]], '{}')
            || coalesce((array_agg(ROW(x.id, x.sort_at, x.tier)::search_hit) FILTER (WHERE x.tier = 3))[1:take - fr_n[3]], '{}')
            || coalesce((array_agg(ROW(x.id, x.sort_at, x.tier)::search_hit) FILTER (WHERE x.tier = 4))[1:take - fr_n[4]], '{}'),
          (array_agg(x.sort_at) FILTER (WHERE x.rn = step))[1],
          (array_agg(x.id) FILTER (WHERE x.rn = step))[1]
        INTO c_full, c1, c2, c3, c4, c_hits, c_end_at, c_end_id
        FROM (
          -- array_agg keeps the order rows arrive in: this subquery's, the listing order.
          SELECT s.id, s.listed_at AS sort_at, row_number() OVER (ORDER BY s.listed_at DESC, s.id DESC) AS rn,
            CASE WHEN NOT s.search_vector @@ t4 THEN NULL WHEN lower(s.name) = exact THEN 0
              WHEN s.name_vector @@ t1 THEN 1 WHEN s.name_vector @@ t2 THEN 2 WHEN s.search_vector @@ t3 THEN 3 ELSE 4 END AS tier
          FROM sites s WHERE s.status = 'live' AND (s.listed_at, s.id) < (fr_end_at, fr_end_id)
          ORDER BY s.listed_at DESC, s.id DESC LIMIT step
        ) x WHERE x.tier IS NOT NULL OR x.rn = step;
        fr_n := ARRAY[fr_n[1] + c1, fr_n[2] + c2, fr_n[3] + c3, fr_n[4] + c4];
        fr_hits := fr_hits || c_hits;
        IF c_full THEN
          fr_rows := fr_rows + step;
          fr_end_at := c_end_at;
          fr_end_id := c_end_id;
        ELSE
          fr_done := true;
        END IF;
      END LOOP;
      found := ARRAY(SELECT ROW(h.id, h.sort_at, h.tier)::search_hit FROM unnest(fr_hits) WITH ORDINALITY AS h(id, sort_at, tier, i)
        WHERE h.tier = k ORDER BY h.i LIMIT need);
      IF n < need AND NOT fr_done THEN
        below_at := fr_end_at;
        below_id := fr_end_id;
      END IF;
    END IF;

    IF below_at IS NOT NULL THEN
      -- A GIN lookup of the tier's matches past the rows read (a sparse tier has few).
      need := need - cardinality(found);
      IF k = 1 THEN
        found := found || ARRAY(SELECT ROW(s.id, s.listed_at, 1)::search_hit FROM sites s
          WHERE s.status = 'live' AND s.name_vector @@ t1 AND lower(s.name) IS DISTINCT FROM exact AND (s.listed_at, s.id) < (below_at, below_id)
          ORDER BY s.listed_at + interval '0 s' DESC, s.id DESC LIMIT need);
      ELSIF k = 2 THEN
        found := found || ARRAY(SELECT ROW(s.id, s.listed_at, 2)::search_hit FROM sites s
          WHERE s.status = 'live' AND s.name_vector @@ t2 AND NOT s.name_vector @@ t1 AND lower(s.name) IS DISTINCT FROM exact
            AND (s.listed_at, s.id) < (below_at, below_id)
          ORDER BY s.listed_at + interval '0 s' DESC, s.id DESC LIMIT need);
      ELSIF k = 3 THEN
        found := found || ARRAY(SELECT ROW(s.id, s.listed_at, 3)::search_hit FROM sites s
          WHERE s.status = 'live' AND s.search_vector @@ t3 AND NOT s.name_vector @@ t2 AND lower(s.name) IS DISTINCT FROM exact
            AND (s.listed_at, s.id) < (below_at, below_id)
          ORDER BY s.listed_at + interval '0 s' DESC, s.id DESC LIMIT need);
      ELSE
        found := found || ARRAY(SELECT ROW(s.id, s.listed_at, 4)::search_hit FROM sites s
          WHERE s.status = 'live' AND s.search_vector @@ t4 AND NOT s.search_vector @@ t3 AND lower(s.name) IS DISTINCT FROM exact
            AND (s.listed_at, s.id) < (below_at, below_id)
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
-- Called by search_results, whose settings it runs under (see search_hits).
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
  walk_cost real, walk_slack real, first_walk int, probe_walk int, max_walk int, postings_batch int, posting_cost real,
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
    hits := search_hits(terms, lower(query), category, take, after_tier, after_at, after_id, walk_cost, walk_slack, first_walk, probe_walk, max_walk, postings_batch, posting_cost);
  END IF;
  IF typo_attempt IS NOT NULL OR (correct AND after_tier IS NULL AND cardinality(hits) = 0) THEN
    fixes := search_corrections(terms, attempts);
    FOR i IN coalesce(typo_attempt, 1)..least(coalesce(typo_attempt, attempts), cardinality(fixes)) LOOP
      hits := search_hits(string_to_array(fixes[i], ' '), fixes[i], category, take,
        after_tier, after_at, after_id, walk_cost, walk_slack, first_walk, probe_walk, max_walk, postings_batch, posting_cost);
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
        SELECT c.slug, c.name, c.live_tools,
          coalesce((SELECT max(similarity(w, t)) FROM unnest(terms) AS t, unnest(tsvector_to_array(c.search_terms)) AS w), 0) AS score
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
