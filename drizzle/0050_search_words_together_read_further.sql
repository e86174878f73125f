-- Words that occur together read further before they give up (issue 32, point 2). drizzle/0048 reads a tier of words
-- typed together from the rarest word's newest 4 × take entries (84 for a page of 20, which takes 21). A tier short of
-- a page there was one GIN lookup when the share found predicted at most 1,024 matches, and the general way otherwise.
-- Two words of one description that are each in some 5,000 of 100,000 tools meet in about 1,000: 15 of the 84 entries,
-- so the lookup fetched and sorted 1,032 tools (3.6 ms) to keep 21. Such pairs are what a corrected typo searches
-- ("daviro padaru" for "daviro padau"). Now a tier short of a page with some found first reads about twice the
-- entries the share says a page needs (here 236), when that is fewer than twice the predicted matches; only a tier
-- still short goes on as before. The pages are the same (the entries are read newest first either way, so the first
-- `need` matches among more entries are still the newest); on the bench's 100,000 tools, searched warm, the corrected
-- pairs take 0.45 ms at the median instead of 2.75, and three words that occur together 0.50 ms at p95 instead of
-- 2.49 (docs/bench.md "Directory search", 30 Nov 01:55 UTC).
--
-- search_hits is restated as drizzle/0048_search_words_together.sql left it, reading tiers 1 and 3 through search_meet.
-- One tier of words typed together, read from the newest entries of its rarest word `drv` (search_meet_*, 0048): `cap`
-- entries first. Short of a page but with some found, the share found says how many entries a page needs: reading
-- about twice that many once more costs less than fetching every match the share predicts (a merged entry costs
-- about 2.5 times less than a fetched tool row: 1.4 and 3.5 µs), so they are read when they are at most twice the
-- predicted matches (and at most 8 batches of postings). `read`: the entries the answer covers, from which the caller
-- estimates what a tier still short holds.
CREATE FUNCTION search_meet(drv text, drv_count int, others text[], others_next int, names boolean, cap int, take int,
  skip uuid[], postings_batch int, OUT hits search_hit[], OUT read int) LANGUAGE plpgsql STABLE AS $$
DECLARE
  wide int;
BEGIN
  hits := '{}';
  read := cap;
  IF drv_count = 0 THEN
    RETURN;
  END IF;
  LOOP
    -- Merging reads the other word's entries down to the driver's last one read: cheaper than looking each entry up
    -- unless that word is in many more tools (8 times: a merged entry costs about an eighth of a lookup).
    IF others_next <= 8 * drv_count THEN
      hits := search_meet_merging(drv, others, names, read, take, skip);
    ELSE
      hits := search_meet_looking_up(drv, others, names, read, take, skip);
    END IF;
    EXIT WHEN read > cap OR cardinality(hits) >= take OR cardinality(hits) = 0 OR drv_count <= read;
    wide := ceil(2.0 * take * read / cardinality(hits))::int;
    EXIT WHEN wide > 8 * postings_batch OR wide > 2.0 * cardinality(hits) * drv_count / read;
    read := wide;
  END LOOP;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION search_hits(terms text[], exact text, category text, take integer, after_tier integer, after_at timestamp with time zone, after_id uuid, walk_cost real, walk_slack real, first_walk integer, probe_walk integer, max_walk integer, postings_batch integer, posting_cost real)
 RETURNS search_hit[]
 LANGUAGE plpgsql
 STABLE
AS $function$
DECLARE
  n_terms int := cardinality(terms);
  read int;
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
  -- Words that occur together: the rarest word in names (tier 1) and in all (tier 3), the others' lexemes (the rarer
  -- first) and that one's count, and the most entries read per tier.
  dn text;
  dn_count int;
  dt text;
  dt_count int;
  n_probe text[];
  t_probe text[];
  n_next int := 2147483647;
  t_next int := 2147483647;
  cap int;
  skip_ids uuid[];
  all_words tsquery;
BEGIN
  -- What the plan needs, in few statements (each statement costs more to start than these lookups cost to run): live
  -- tools in all and in `category`, and tier 0 (the name is the query: a lookup of the lower(name) index).
  SELECT (SELECT l.tools FROM search_lexemes l WHERE l.lexeme = ''),
    (SELECT c.live_tools FROM categories c WHERE c.slug = category),
    CASE WHEN exact IS NOT NULL AND coalesce(after_tier, 0) = 0 THEN ARRAY(
      SELECT ROW(s.id, s.listed_at, 0)::search_hit FROM sites s
      WHERE (s.status = 'live' AND NOT s.health_hidden) AND lower(s.name) = exact AND (category IS NULL OR s.category_slugs @> ARRAY[category])
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
  -- Several words, each whole, naming no category, on a first page without a filter (words typed together): tier 1 is
  -- the tools whose names hold every word, tier 3 the other tools whose text does (tier 2 adds nothing when the last
  -- word begins no other lexeme, tier 4 nothing when no word names a category). Each is an intersection of the words'
  -- postings, read by search_meet (above) from the rarest word's newest entries: `cap` of them, more when the share found
  -- says a page is not far. A tier still short of a page is looked up whole (GIN) when that share says its matches are
  -- few; a denser one is left to the steps below, which start afresh (each tier there sets its own `need` and `found`).
  -- It comes before the text queries of the tiers are built: it needs none.
  IF after_tier IS NULL AND category IS NULL AND cardinality(lexes) > 1 AND postings_batch > 0
    AND cardinality(array_remove(cat_queries, NULL)) = 0
    AND (positions[cardinality(positions)] < n_terms OR begun = ARRAY[lexes[cardinality(lexes)]]) THEN
    -- The rarest word in names drives tier 1, the rarest in all drives tier 3; of the others (two at most) the rarer is
    -- merged, the other looked up. Plain loops: each SQL statement here would cost more than the work.
    dn := lexes[1]; dn_count := whole_names[1]; dt := lexes[1]; dt_count := whole_tools[1];
    FOR i IN 2..cardinality(lexes) LOOP
      IF whole_names[i] < dn_count THEN dn := lexes[i]; dn_count := whole_names[i]; END IF;
      IF whole_tools[i] < dt_count THEN dt := lexes[i]; dt_count := whole_tools[i]; END IF;
    END LOOP;
    n_probe := '{}'; t_probe := '{}';
    all_words := quote_literal(lexes[1])::tsquery;
    FOR i IN 1..cardinality(lexes) LOOP
      IF i > 1 THEN
        all_words := all_words && quote_literal(lexes[i])::tsquery;
      END IF;
      IF lexes[i] <> dn AND NOT lexes[i] = ANY (n_probe) THEN
        n_probe := CASE WHEN cardinality(n_probe) = 1 AND whole_names[i] < n_next THEN lexes[i] || n_probe ELSE n_probe || lexes[i] END;
        n_next := least(n_next, whole_names[i]);
      END IF;
      IF lexes[i] <> dt AND NOT lexes[i] = ANY (t_probe) THEN
        t_probe := CASE WHEN cardinality(t_probe) = 1 AND whole_tools[i] < t_next THEN lexes[i] || t_probe ELSE t_probe || lexes[i] END;
        t_next := least(t_next, whole_tools[i]);
      END IF;
    END LOOP;
    need := take - cardinality(hits);
    -- A word no live tool holds (a typo, before its correction is tried): tiers 1 and 3 are empty.
    IF dt_count = 0 THEN
      RETURN hits;
    END IF;
    IF cardinality(n_probe) BETWEEN 1 AND 2 AND need > 0 THEN
      cap := least(postings_batch, 4 * take);
      <<words_together>>
      BEGIN
        found := '{}';
        skip_ids := '{}';
        IF cardinality(hits) > 0 THEN
          skip_ids := ARRAY(SELECT h.id FROM unnest(hits) AS h);
        END IF;
        SELECT m.hits, m.read INTO found, read
          FROM search_meet(dn, dn_count, n_probe, n_next, true, cap, need, skip_ids, postings_batch) AS m;
        -- Short of a page with entries left unread: when the share found says the tier's matches are few (at most
        -- four batches of postings), a GIN lookup finds them all at once; a denser tier the steps below read further.
        IF cardinality(found) < need AND dn_count > read THEN
          EXIT words_together WHEN cardinality(found)::real * dn_count / read > 4 * postings_batch;
          found := ARRAY(SELECT ROW(s.id, s.listed_at, 1)::search_hit FROM sites s
            WHERE (s.status = 'live' AND NOT s.health_hidden) AND s.name_vector @@ all_words AND s.id <> ALL (skip_ids)
            ORDER BY s.listed_at + interval '0 s' DESC, s.id DESC LIMIT need);
        END IF;
        -- Tier 1 is whole now, or fills the page (its entries are read newest first).
        IF cardinality(found) >= need THEN
          RETURN hits || found;
        END IF;
        -- Tier 3 skips every tool of tiers 0 and 1 (each has every word in its text too).
        need := need - cardinality(found);
        IF cardinality(found) > 0 THEN
          skip_ids := skip_ids || ARRAY(SELECT h.id FROM unnest(found) AS h);
        END IF;
        SELECT m.hits, m.read INTO c_hits, read
          FROM search_meet(dt, dt_count, t_probe, t_next, false, cap, need, skip_ids, postings_batch) AS m;
        IF cardinality(c_hits) < need AND dt_count > read THEN
          EXIT words_together WHEN cardinality(c_hits)::real * dt_count / read > 4 * postings_batch;
          c_hits := ARRAY(SELECT ROW(s.id, s.listed_at, 3)::search_hit FROM sites s
            WHERE (s.status = 'live' AND NOT s.health_hidden) AND s.search_vector @@ all_words AND NOT s.name_vector @@ all_words
            ORDER BY s.listed_at + interval '0 s' DESC, s.id DESC LIMIT need);
        END IF;
        RETURN hits || found || c_hits;
      END;
    END IF;
  END IF;
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
            LEFT JOIN LATERAL (SELECT s.id, s.name, s.name_vector, s.search_vector FROM sites s WHERE s.id = c.site_id AND (s.status = 'live' AND NOT s.health_hidden)) s ON true
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
            LEFT JOIN LATERAL (SELECT s.id, s.name, s.name_vector, s.search_vector FROM sites s WHERE s.id = c.site_id AND (s.status = 'live' AND NOT s.health_hidden)) s ON true
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
          FROM sites s WHERE (s.status = 'live' AND NOT s.health_hidden) AND (s.listed_at, s.id) < (fr_end_at, fr_end_id)
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
          WHERE (s.status = 'live' AND NOT s.health_hidden) AND s.name_vector @@ t1 AND lower(s.name) IS DISTINCT FROM exact AND (s.listed_at, s.id) < (below_at, below_id)
          ORDER BY s.listed_at + interval '0 s' DESC, s.id DESC LIMIT need);
      ELSIF k = 2 THEN
        found := found || ARRAY(SELECT ROW(s.id, s.listed_at, 2)::search_hit FROM sites s
          WHERE (s.status = 'live' AND NOT s.health_hidden) AND s.name_vector @@ t2 AND NOT s.name_vector @@ t1 AND lower(s.name) IS DISTINCT FROM exact
            AND (s.listed_at, s.id) < (below_at, below_id)
          ORDER BY s.listed_at + interval '0 s' DESC, s.id DESC LIMIT need);
      ELSIF k = 3 THEN
        found := found || ARRAY(SELECT ROW(s.id, s.listed_at, 3)::search_hit FROM sites s
          WHERE (s.status = 'live' AND NOT s.health_hidden) AND s.search_vector @@ t3 AND NOT s.name_vector @@ t2 AND lower(s.name) IS DISTINCT FROM exact
            AND (s.listed_at, s.id) < (below_at, below_id)
          ORDER BY s.listed_at + interval '0 s' DESC, s.id DESC LIMIT need);
      ELSE
        found := found || ARRAY(SELECT ROW(s.id, s.listed_at, 4)::search_hit FROM sites s
          WHERE (s.status = 'live' AND NOT s.health_hidden) AND s.search_vector @@ t4 AND NOT s.search_vector @@ t3 AND lower(s.name) IS DISTINCT FROM exact
            AND (s.listed_at, s.id) < (below_at, below_id)
          ORDER BY s.listed_at + interval '0 s' DESC, s.id DESC LIMIT need);
      END IF;
    END IF;
    hits := hits || found;
  END LOOP;
  RETURN hits;
END $function$;
