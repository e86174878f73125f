-- The search counts (0034) deleted the lexemes and vocabulary words whose count reached zero with
-- `WHERE tools <= 0 AND word IN (<every word of the change set>)`. Right after the upsert the statistics still say no
-- row has a count of zero, so the planner expected one such row and ran a nested loop that recomputed the whole change
-- set's words for every row it found: taking 2,000 live tools down took 87 s, and the time grew with the square of
-- the tools (issue 27; found by the growth bench once it ran again). Now the upsert returns the rows it left at zero
-- and only those are deleted, joined by primary key to that set: nothing is recomputed, and no filter with a stale
-- estimate drives the plan. The upsert holds those rows' locks until the transaction ends, so no other writer can
-- raise a count between the upsert and the delete. The change set is read as `change_set` in every statement, which
-- test/helpers/trigger-plans.ts recognises as a whole set that must never be read inside a loop.
CREATE OR REPLACE FUNCTION search_counts_apply(changes search_count_change[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  emptied_lexemes text[];
  emptied_words text[];
BEGIN
  IF cardinality(changes) = 0 THEN
    RETURN;
  END IF;
  WITH counted AS (
    INSERT INTO search_lexemes AS s (lexeme, tools, name_tools)
      SELECT l, sum(t)::int, sum(n)::int FROM (
        SELECT unnest(tsvector_to_array(change_set.search_vector)) AS l, change_set.sign AS t, 0 AS n FROM unnest(changes) AS change_set
        UNION ALL SELECT unnest(tsvector_to_array(change_set.name_vector)), 0, change_set.sign FROM unnest(changes) AS change_set
        UNION ALL SELECT '', change_set.sign, change_set.sign FROM unnest(changes) AS change_set
      ) x GROUP BY l HAVING sum(t) <> 0 OR sum(n) <> 0 ORDER BY l
    ON CONFLICT (lexeme) DO UPDATE SET tools = s.tools + excluded.tools, name_tools = s.name_tools + excluded.name_tools
    RETURNING s.lexeme, s.tools
  )
  SELECT coalesce(array_agg(lexeme), '{}') INTO emptied_lexemes FROM counted WHERE tools <= 0 AND lexeme <> '';
  IF cardinality(emptied_lexemes) > 0 THEN
    DELETE FROM search_lexemes s USING unnest(emptied_lexemes) AS e(lexeme) WHERE s.lexeme = e.lexeme;
  END IF;
  WITH counted AS (
    INSERT INTO search_vocabulary AS v (word, tools)
      SELECT w, sum(change_set.sign)::int FROM unnest(changes) AS change_set, search_text_words(change_set.name, change_set.description) AS w
      GROUP BY w HAVING sum(change_set.sign) <> 0 ORDER BY w
    ON CONFLICT (word) DO UPDATE SET tools = v.tools + excluded.tools
    RETURNING v.word, v.tools
  )
  SELECT coalesce(array_agg(word), '{}') INTO emptied_words FROM counted WHERE tools <= 0;
  IF cardinality(emptied_words) > 0 THEN
    DELETE FROM search_vocabulary v USING unnest(emptied_words) AS e(word) WHERE v.word = e.word;
  END IF;
  -- Postings: the old row's entries go, the new row's come (an unchanged lexeme of an unchanged listing time is both).
  DELETE FROM search_postings p USING (
      SELECT unnest(tsvector_to_array(change_set.search_vector)) AS lexeme, change_set.listed_at, change_set.id
      FROM unnest(changes) AS change_set WHERE change_set.sign < 0
    ) d WHERE p.lexeme = d.lexeme AND p.listed_at = d.listed_at AND p.site_id = d.id;
  INSERT INTO search_postings (lexeme, listed_at, site_id, in_name)
    SELECT l, change_set.listed_at, change_set.id, l = ANY (tsvector_to_array(change_set.name_vector))
    FROM unnest(changes) AS change_set, unnest(tsvector_to_array(change_set.search_vector)) AS l WHERE change_set.sign > 0
    ORDER BY 1, 2, 3;
END $$;
