-- Two derived search structures, each kept by triggers so no writer has to remember them
-- (docs/mcp-and-search.md "Speed"):
--   sites.category_slugs: a sorted copy of the site's site_categories rows (site_categories is what writers write);
--   search_words: the words of live tools' names with a count per word, the typo fallback's vocabulary.
-- Statement-level triggers with transition tables: a bulk change costs one statement per trigger, and an UPDATE
-- that changes no live name changes nothing.

CREATE FUNCTION site_categories_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE sites s SET category_slugs = coalesce(
      (SELECT array_agg(sc.category_slug ORDER BY sc.category_slug) FROM site_categories sc WHERE sc.site_id = s.id), '{}')
    WHERE s.id IN (SELECT site_id FROM changed_rows);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER site_categories_sync_insert AFTER INSERT ON site_categories REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION site_categories_sync();
--> statement-breakpoint
CREATE TRIGGER site_categories_sync_delete AFTER DELETE ON site_categories REFERENCING OLD TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION site_categories_sync();
--> statement-breakpoint
-- site_categories rows are inserted and deleted, never updated (src/categories/); an UPDATE is refused rather
-- than silently leaving category_slugs stale.
CREATE FUNCTION site_categories_no_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'site_categories rows are replaced (DELETE + INSERT), never updated';
END $$;
--> statement-breakpoint
CREATE TRIGGER site_categories_no_update BEFORE UPDATE ON site_categories
  FOR EACH STATEMENT EXECUTE FUNCTION site_categories_no_update();
--> statement-breakpoint
UPDATE sites s SET category_slugs = c.slugs
  FROM (SELECT site_id, array_agg(category_slug ORDER BY category_slug) AS slugs FROM site_categories GROUP BY site_id) c
  WHERE c.site_id = s.id;
--> statement-breakpoint
-- The words of a name the vocabulary keeps: lower-cased runs of letters and digits, 3 or more characters with
-- at least one letter (short words and numbers are poor typo targets). The one place for the rule.
CREATE FUNCTION search_name_words(name text) RETURNS SETOF text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT DISTINCT left(w, 64) FROM regexp_split_to_table(lower(name), '[^[:alnum:]]+') AS w
  WHERE length(w) >= 3 AND w ~ '[[:alpha:]]'
$$;
--> statement-breakpoint
-- Applies per-word count changes in word order (concurrent writers lock rows in the same order): a count that
-- reaches zero deletes the word.
CREATE FUNCTION search_words_apply(changes jsonb) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM search_words w USING jsonb_each_text(changes) AS d(word, delta)
    WHERE w.word = d.word AND d.delta::int < 0 AND w.tools + d.delta::int <= 0;
  UPDATE search_words w SET tools = w.tools + d.delta::int FROM jsonb_each_text(changes) AS d(word, delta)
    WHERE w.word = d.word AND d.delta::int < 0;
  INSERT INTO search_words (word, tools)
    SELECT d.word, d.delta::int FROM jsonb_each_text(changes) AS d(word, delta) WHERE d.delta::int > 0 ORDER BY d.word
    ON CONFLICT (word) DO UPDATE SET tools = search_words.tools + excluded.tools;
END $$;
--> statement-breakpoint
CREATE FUNCTION search_words_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM search_words_apply(coalesce((SELECT jsonb_object_agg(word, n) FROM (
    SELECT w AS word, count(*) AS n FROM new_rows r, search_name_words(r.name) AS w WHERE r.status = 'live' GROUP BY w
  ) x), '{}'));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION search_words_after_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM search_words_apply(coalesce((SELECT jsonb_object_agg(word, n) FROM (
    SELECT word, sum(n) AS n FROM (
      SELECT w AS word, 1 AS n FROM new_rows r, search_name_words(r.name) AS w WHERE r.status = 'live'
      UNION ALL
      SELECT w, -1 FROM old_rows r, search_name_words(r.name) AS w WHERE r.status = 'live'
    ) c GROUP BY word HAVING sum(n) <> 0
  ) x), '{}'));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION search_words_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM search_words_apply(coalesce((SELECT jsonb_object_agg(word, -n) FROM (
    SELECT w AS word, count(*) AS n FROM old_rows r, search_name_words(r.name) AS w WHERE r.status = 'live' GROUP BY w
  ) x), '{}'));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER sites_search_words_insert AFTER INSERT ON sites REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_words_after_insert();
--> statement-breakpoint
CREATE TRIGGER sites_search_words_update AFTER UPDATE ON sites REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_words_after_update();
--> statement-breakpoint
CREATE TRIGGER sites_search_words_delete AFTER DELETE ON sites REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_words_after_delete();
--> statement-breakpoint
INSERT INTO search_words (word, tools)
  SELECT w, count(*)::int FROM sites s, search_name_words(s.name) AS w WHERE s.status = 'live' GROUP BY w;
--> statement-breakpoint
-- The directory's listing index (src/db/schema/sites.ts explains why it is here): newest first, with what the
-- search's recent window reads, so that window is an index-only scan.
CREATE INDEX sites_live_listing_idx ON sites (listed_at DESC, id DESC)
  INCLUDE (name, name_vector, search_vector) WHERE status = 'live';
--> statement-breakpoint
-- Index-only scans skip the table only for pages the visibility map marks all-visible; vacuum sites after 1% of
-- its rows changed (default 20%), so the newest tools, the ones search reads first, do not wait long for it.
ALTER TABLE sites SET (autovacuum_vacuum_scale_factor = 0.01, autovacuum_vacuum_insert_scale_factor = 0.01);
