-- The search counts' update trigger (0034) paired old and new rows with an inner JOIN, which the planner may run as a
-- nested loop over transition tables that have no index and no statistics: a bulk UPDATE of every live tool rescanned
-- old_rows per new row. A FULL JOIN on id can only run as a hash or merge join, so the work stays linear in the rows
-- the statement touched (docs/architecture.md "Triggers"; test/functions/trigger-plans.test.ts holds it).
CREATE OR REPLACE FUNCTION search_counts_after_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM search_counts_apply(ARRAY(
    SELECT c.change FROM new_rows n FULL JOIN old_rows o ON o.id = n.id,
      LATERAL (VALUES
        (CASE WHEN n.status = 'live' THEN ROW(1, n.id, n.listed_at, n.search_vector, n.name_vector, n.name, n.metadata->>'description')::search_count_change END),
        (CASE WHEN o.status = 'live' THEN ROW(-1, o.id, o.listed_at, o.search_vector, o.name_vector, o.name, o.metadata->>'description')::search_count_change END)
      ) AS c(change)
    WHERE (n.status = 'live' OR o.status = 'live') AND (c.change).sign IS NOT NULL
      AND (n.status IS DISTINCT FROM o.status OR n.search_vector IS DISTINCT FROM o.search_vector OR n.listed_at IS DISTINCT FROM o.listed_at
        OR n.name IS DISTINCT FROM o.name OR n.metadata->>'description' IS DISTINCT FROM o.metadata->>'description')));
  RETURN NULL;
END $$;
