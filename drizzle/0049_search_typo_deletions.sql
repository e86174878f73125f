-- Typos looked up by deletions (issue 32, point 2; docs/mcp-and-search.md "Typos" and "Speed"). A typo was corrected by
-- one trigram lookup of search_vocabulary at a threshold low enough to find every word within the allowed edits. For
-- the lookups that matter most that threshold is very low: about 0.3 for a word of 5 letters at one edit and 0.18 for
-- a word of 8 at two, so each visited a third of the vocabulary and tested every word it found (1.9 ms at the median
-- and 3.3 ms at p95 for a two-edit typo at 100,000 tools, the tail of a description typo's search).
--
-- Now a word is found by what is left of it once letters are removed (the symmetric-deletion idea of SymSpell): a word
-- within one edit of the typed one (a letter added, dropped or replaced) leaves, once at most one letter is removed
-- from each, a string common to both, and a word within two edits one with at most two removed from each. So
-- search_vocabulary_deletions holds, for every vocabulary word, the word itself and each string left by removing one
-- letter, and for words of 8 to 14 letters also each left by removing two; a typed word's own such strings are looked
-- up in its primary key (a word of 8 letters: 37 probes), and levenshtein keeps the words within the edits, as before.
-- The two-edit lookup is for typed words of 8 to 12 letters (whose corrections have 6 to 14); a longer typed word keeps
-- the trigram lookup, whose threshold is high enough by then (0.36 at 13 letters) to stay cheap. At 100,000 tools the
-- two-edit lookup takes 0.5 ms at the median and 0.9 ms at p95, and finds the same words (docs/bench.md).
--
-- The cost is room: 2.3 million rows for the 98,000 words of the bench's 100,000 tools. The table changes only when a
-- word enters or leaves the vocabulary (statement-level triggers on search_vocabulary below), so a tool published with
-- words already known writes nothing here.

-- The strings left by removing up to `most` letters of `word` (the word itself included), of 3 letters or more:
-- shorter ones match nothing a lookup asks for (a typed word has 4 letters or more, so its one-removal strings have 3).
CREATE FUNCTION search_word_deletions(word text, most int) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT ARRAY(SELECT DISTINCT d FROM (
      SELECT word AS d
      UNION ALL SELECT overlay(word PLACING '' FROM i FOR 1) FROM generate_series(1, char_length(word)) AS i WHERE most >= 1
      UNION ALL SELECT overlay(overlay(word PLACING '' FROM j FOR 1) PLACING '' FROM i FOR 1)
        FROM generate_series(1, char_length(word)) AS i, generate_series(i + 1, char_length(word)) AS j WHERE most >= 2
    ) x WHERE char_length(d) >= 3)
$$;
--> statement-breakpoint
-- What the table keeps of one vocabulary word: one removal for every word, two for words a two-edit lookup can reach
-- (6 to 14 letters; one of 6 or 7 leaves strings of 4 or 5 letters by two removals, shorter than any a typed word of 8
-- leaves by two, so it needs none). The bounds are search_corrections' (below): typed words of 8 to 12 letters, ± 2.
CREATE FUNCTION search_vocabulary_deletion_keys(word text) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT search_word_deletions(word, CASE WHEN char_length(word) BETWEEN 8 AND 14 THEN 2 ELSE 1 END)
$$;
--> statement-breakpoint
CREATE TABLE search_vocabulary_deletions (
  deletion text COLLATE "C" NOT NULL,
  word text NOT NULL,
  CONSTRAINT search_vocabulary_deletions_pkey PRIMARY KEY (deletion, word)
);
--> statement-breakpoint
CREATE FUNCTION search_vocabulary_deletions_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_vocabulary_deletions (deletion, word)
    SELECT k, new_rows.word FROM new_rows, unnest(search_vocabulary_deletion_keys(new_rows.word)) AS k ORDER BY 1, 2
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION search_vocabulary_deletions_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM search_vocabulary_deletions d USING (
      SELECT k, old_rows.word FROM old_rows, unnest(search_vocabulary_deletion_keys(old_rows.word)) AS k
    ) o WHERE d.deletion = o.k AND d.word = o.word;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- An upsert (search_counts_apply, drizzle/0045) fires the INSERT trigger with the words it inserted only; the words
-- whose count it raised are updates, which change no word.
CREATE TRIGGER search_vocabulary_deletions_insert AFTER INSERT ON search_vocabulary REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_vocabulary_deletions_insert();
--> statement-breakpoint
CREATE TRIGGER search_vocabulary_deletions_delete AFTER DELETE ON search_vocabulary REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_vocabulary_deletions_delete();
--> statement-breakpoint
INSERT INTO search_vocabulary_deletions (deletion, word)
  SELECT k, v.word FROM search_vocabulary v, unnest(search_vocabulary_deletion_keys(v.word)) AS k ORDER BY 1, 2;
--> statement-breakpoint
ALTER TABLE search_vocabulary_deletions SET (autovacuum_vacuum_scale_factor = 0.01, autovacuum_analyze_scale_factor = 0.01);
--> statement-breakpoint
-- search_corrections as drizzle/0034_search_meaning.sql made it, with the lookup of each word's candidates changed
-- (above): the deletions for one edit and for two edits of a word of 8 to 12 letters, the trigram index for two edits
-- of a longer word. The candidates are then ranked as before.
CREATE OR REPLACE FUNCTION search_corrections(terms text[], attempts int) RETURNS text[] LANGUAGE plpgsql STABLE
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
  near text[];
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
          IF edits = 1 OR len <= 12 THEN
            -- Every word within `edits` edits shares a string with this one once at most `edits` letters are removed
            -- from each (drizzle/0049_search_typo_deletions.sql keeps the vocabulary's).
            near := ARRAY(SELECT DISTINCT d.word FROM search_vocabulary_deletions d
              WHERE d.deletion = ANY (search_word_deletions(term, edits)));
          ELSE
            -- Every word within two insertions, deletions or replacements shares at least m − 6 of the word's m
            -- distinct trigrams and has at most len + 3, so its similarity is at least this: the trigram index finds
            -- them all (src/directory/search-typo.ts).
            PERFORM set_config('pg_trgm.similarity_threshold',
              greatest(0.01, (cardinality(show_trgm(term)) - 3 * edits)::real / (len + 1 + 4 * edits) - 0.001)::text, true);
            near := ARRAY(SELECT v.word FROM search_vocabulary v WHERE v.word % term);
          END IF;
          -- Swaps are looked up by name.
          cand := ARRAY(
            SELECT x.word FROM (
              SELECT c.word, max(c.tools) AS tools,
                min(CASE WHEN c.word = ANY (swaps) THEN 1 ELSE levenshtein_less_equal(c.word, term, edits) END) AS dist
              FROM (
                SELECT v.word, v.tools FROM search_vocabulary v WHERE v.word = ANY (near || swaps)
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
