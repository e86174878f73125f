-- Bulk writes stay linear (issue 27, docs/architecture.md "Triggers"). The statement-level triggers of 0025 and
-- 0029 asked "did any live row change?" as EXISTS over old_rows joined to new_rows. The planner runs an EXISTS as
-- a nested loop that hopes for an early match: when no row changed (UPDATE sites SET x = x over every live tool)
-- it scanned old_rows once per new row, n² row comparisons (1.9 s at 5,000 tools, past 120 s at 20,000).
-- Each trigger below now pairs old and new rows with a FULL JOIN on id: PostgreSQL can run a full join only as a
-- hash or merge join, never as a nested loop, so the pairing is one pass over each transition table whatever the
-- planner estimates. Work then follows only the pairs that changed. Results are the same as before: unchanged
-- pairs contributed +n and -n to every count, which cancel.
-- The rule for any future trigger (test/functions/trigger-plans.test.ts holds it): a transition table is scanned
-- once per statement, never on the inner side of a loop.

-- The live rows a statement changed (a pair with one side missing, should an id ever change, counts as changed),
-- their category deltas, one version bump when there is any.
CREATE OR REPLACE FUNCTION listing_after_update() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed_live bigint;
  changes jsonb;
BEGIN
  WITH changed AS (
    SELECT n.status = 'live' AS now_live, n.category_slugs AS now_slugs, o.status = 'live' AS was_live, o.category_slugs AS was_slugs
    FROM new_rows n FULL JOIN old_rows o ON o.id = n.id
    WHERE (n.status = 'live' OR o.status = 'live') AND n IS DISTINCT FROM o
  )
  SELECT (SELECT count(*) FROM changed), (SELECT jsonb_object_agg(cat, delta) FROM (
      SELECT cat, sum(delta) AS delta FROM (
        SELECT unnest(now_slugs) AS cat, 1 AS delta FROM changed WHERE now_live
        UNION ALL
        SELECT unnest(was_slugs), -1 FROM changed WHERE was_live
      ) c GROUP BY cat HAVING sum(delta) <> 0
    ) x)
  INTO changed_live, changes;
  IF changed_live > 0 THEN
    PERFORM listing_apply(coalesce(changes, '{}'));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Only a row that went live, left live, or was renamed while live moves the vocabulary.
CREATE OR REPLACE FUNCTION search_words_after_update() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changes jsonb;
BEGIN
  WITH moved AS (
    SELECT n.status = 'live' AS now_live, n.name AS now_name, o.status = 'live' AS was_live, o.name AS was_name
    FROM new_rows n FULL JOIN old_rows o ON o.id = n.id
    WHERE (n.status = 'live' OR o.status = 'live') AND (n.status IS DISTINCT FROM o.status OR n.name IS DISTINCT FROM o.name)
  )
  SELECT jsonb_object_agg(word, delta) INTO changes FROM (
    SELECT word, sum(delta) AS delta FROM (
      SELECT w AS word, 1 AS delta FROM moved m, search_name_words(m.now_name) AS w WHERE m.now_live
      UNION ALL
      SELECT w, -1 FROM moved m, search_name_words(m.was_name) AS w WHERE m.was_live
    ) c GROUP BY word HAVING sum(delta) <> 0
  ) x;
  IF changes IS NOT NULL THEN
    PERFORM search_words_apply(changes);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- One index lookup per site the statement touched, and a site whose sorted slugs come out as they were is not
-- rewritten (its row, indexes and the triggers above are spared).
CREATE OR REPLACE FUNCTION site_categories_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE sites s SET category_slugs = k.slugs
    FROM (SELECT DISTINCT site_id FROM changed_rows) c
    CROSS JOIN LATERAL (
      SELECT coalesce(array_agg(sc.category_slug ORDER BY sc.category_slug), '{}') AS slugs
      FROM site_categories sc WHERE sc.site_id = c.site_id
    ) k
    WHERE s.id = c.site_id AND s.category_slugs IS DISTINCT FROM k.slugs;
  RETURN NULL;
END $$;
