CREATE TABLE "listing_version" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "listing_version_one_row" CHECK ("listing_version"."id")
);
--> statement-breakpoint
ALTER TABLE "categories" ADD COLUMN "live_tools" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- What the public pages show changes only through sites (a live tool appears, changes or leaves) and categories
-- (a name, a description, a new or deleted category). Statement-level triggers with transition tables keep two
-- things exact, like drizzle/0025_search_derived_columns.sql does for search (docs/pages.md "Caching"):
--   categories.live_tools: the live tools of each category, so a page never counts them;
--   listing_version.version: bumped by every such change, so a cached page is served only while it is current.
-- Lock order is the same for every writer (category rows by slug, then the version row), so writers that race
-- wait for each other but never deadlock.
INSERT INTO listing_version (id, version) VALUES (true, 1);
--> statement-breakpoint
UPDATE categories c SET live_tools = coalesce((SELECT count(*) FROM sites s WHERE s.status = 'live' AND c.slug = ANY (s.category_slugs)), 0);
--> statement-breakpoint
CREATE FUNCTION listing_apply(changes jsonb) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM categories c WHERE c.slug IN (SELECT jsonb_object_keys(changes)) ORDER BY c.slug FOR UPDATE;
  UPDATE categories c SET live_tools = c.live_tools + d.delta::int FROM jsonb_each_text(changes) AS d(slug, delta)
    WHERE c.slug = d.slug AND d.delta::int <> 0;
  UPDATE listing_version SET version = version + 1;
END $$;
--> statement-breakpoint
CREATE FUNCTION listing_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM new_rows WHERE status = 'live') THEN
    PERFORM listing_apply(coalesce((SELECT jsonb_object_agg(cat, n) FROM (
      SELECT cat, count(*) AS n FROM new_rows r, unnest(r.category_slugs) AS cat WHERE r.status = 'live' GROUP BY cat
    ) x), '{}'));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- An update that leaves every live row as it was (or touches only rows that are not live) changes nothing.
CREATE FUNCTION listing_after_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM new_rows n JOIN old_rows o ON o.id = n.id
             WHERE (n.status = 'live' OR o.status = 'live') AND n IS DISTINCT FROM o) THEN
    PERFORM listing_apply(coalesce((SELECT jsonb_object_agg(cat, n) FROM (
      SELECT cat, sum(n) AS n FROM (
        SELECT cat, 1 AS n FROM new_rows r, unnest(r.category_slugs) AS cat WHERE r.status = 'live'
        UNION ALL
        SELECT cat, -1 FROM old_rows r, unnest(r.category_slugs) AS cat WHERE r.status = 'live'
      ) c GROUP BY cat HAVING sum(n) <> 0
    ) x), '{}'));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION listing_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM old_rows WHERE status = 'live') THEN
    PERFORM listing_apply(coalesce((SELECT jsonb_object_agg(cat, -n) FROM (
      SELECT cat, count(*) AS n FROM old_rows r, unnest(r.category_slugs) AS cat WHERE r.status = 'live' GROUP BY cat
    ) x), '{}'));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER sites_listing_insert AFTER INSERT ON sites REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION listing_after_insert();
--> statement-breakpoint
CREATE TRIGGER sites_listing_update AFTER UPDATE ON sites REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION listing_after_update();
--> statement-breakpoint
CREATE TRIGGER sites_listing_delete AFTER DELETE ON sites REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION listing_after_delete();
--> statement-breakpoint
-- A category's name or description is on every page that lists its tools; its count (live_tools) is kept above.
CREATE FUNCTION listing_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE listing_version SET version = version + 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER categories_listing_change AFTER INSERT OR DELETE OR UPDATE OF name, description ON categories
  FOR EACH STATEMENT EXECUTE FUNCTION listing_bump();
