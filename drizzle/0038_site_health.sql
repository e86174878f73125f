-- Health of live listings (issue 30, docs/health.md): the re-check's record per site, the flag that hides a listing
-- from every list while its page stays, and the derived structures of search and categories taught to leave a hidden
-- listing out.
--
-- 1. sites.health_hidden: set when a listing is hidden (failing for HEALTH_HIDE_AFTER_DAYS, or moved), cleared by
--    the first passing check. The status stays 'live'.
-- 2. site_health: one row per site that has ever been live (the re-check's state, reason, times, conditional-request
--    validators, what the page showed, what the owner was last told). next_check_at is the due key: each live tool's
--    fixed second of the UTC day (a hash of its id, so a million tools spread evenly, about 12 a second), NULL once
--    the site is not live. The partial index answers "which tools are due" without a scan.
-- 3. A row trigger on sites keeps site_health in step with liveness: live → a row, due at its slot tomorrow; not live →
--    next_check_at NULL (kept: an operator may still read what the last check found).
-- 4. A row trigger on site_health writes the webhook outbox rows of `site.health_changed` when notified_state changes,
--    in the same statement (as the status-change trigger does), so no code path can forget one.
-- 5. Every function that decides what is listed (search's counts and postings, the categories' live_tools and the
--    listing version, search's exact-name and newest-frontier reads, the newest tools a search offers when it finds nothing) is rewritten so `<x>.status = 'live'` reads
--    `(<x>.status = 'live' AND NOT <x>.health_hidden)`, and a change of health_hidden counts as a change of
--    liveness. The rewrite is textual over the functions as they are at this point (whatever migration defined them
--    last), and fails the migration if a named function no longer says what it rewrites.
-- 6. The listing index carries health_hidden, so the newest-first walks stay index-only with the extra condition.
ALTER TABLE "sites" ADD COLUMN "health_hidden" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
CREATE TABLE "site_health" (
  "site_id" uuid PRIMARY KEY NOT NULL REFERENCES "sites"("id") ON DELETE CASCADE,
  "state" text DEFAULT 'unchecked' NOT NULL,
  "reason_kind" text DEFAULT 'not_checked_yet',
  "http_status" integer,
  "moved_to" text,
  "last_checked_at" timestamp with time zone,
  "last_ok_at" timestamp with time zone,
  "failing_since" timestamp with time zone,
  "next_check_at" timestamp with time zone,
  "etag" text,
  "last_modified" text,
  "seen_title" text,
  "seen_description" text,
  "seen_image" text,
  "notified_state" text DEFAULT 'ok' NOT NULL,
  "notified_on" date,
  "hidden_at" timestamp with time zone,
  "hidden_on" date,
  CONSTRAINT "site_health_state_check" CHECK ("state" IN ('ok', 'failing', 'moved', 'unchecked')),
  CONSTRAINT "site_health_notified_state_check" CHECK ("notified_state" IN ('ok', 'failing', 'hidden', 'moved'))
);
--> statement-breakpoint
CREATE INDEX "site_health_due_idx" ON "site_health" ("next_check_at") WHERE "next_check_at" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "site_health_attention_idx" ON "site_health" ("failing_since") WHERE "state" IN ('failing', 'moved');
--> statement-breakpoint
-- A tool's second of the UTC day: fixed by its id, uniform over the day.
CREATE FUNCTION health_check_slot(site uuid) RETURNS interval LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT ((hashtext(site::text)::bigint & 2147483647) % 86400) * interval '1 second'
$$;
--> statement-breakpoint
-- The tool's slot on the UTC day after `after`'s: one check per tool a day, always at the same second.
CREATE FUNCTION health_next_check(site uuid, after timestamptz) RETURNS timestamptz LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT date_trunc('day', after, 'UTC') + interval '1 day' + health_check_slot(site)
$$;
--> statement-breakpoint
CREATE FUNCTION site_health_follow_status() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status = 'live' THEN
    INSERT INTO site_health (site_id, next_check_at) VALUES (NEW.id, health_next_check(NEW.id, now()))
    ON CONFLICT (site_id) DO UPDATE SET next_check_at = coalesce(site_health.next_check_at, excluded.next_check_at);
  ELSIF TG_OP = 'UPDATE' AND OLD.status = 'live' THEN
    UPDATE site_health SET next_check_at = NULL WHERE site_id = NEW.id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER sites_health_follow_insert AFTER INSERT ON sites
  FOR EACH ROW WHEN (NEW.status = 'live') EXECUTE FUNCTION site_health_follow_status();
--> statement-breakpoint
CREATE TRIGGER sites_health_follow_status AFTER UPDATE OF status ON sites
  FOR EACH ROW WHEN (NEW.status IS DISTINCT FROM OLD.status) EXECUTE FUNCTION site_health_follow_status();
--> statement-breakpoint
INSERT INTO site_health (site_id, next_check_at) SELECT s.id, health_next_check(s.id, now()) FROM sites s WHERE s.status = 'live';
--> statement-breakpoint
CREATE FUNCTION announce_site_health_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  new_event_id text := 'evt_' || replace(gen_random_uuid()::text, '-', '');
BEGIN
  INSERT INTO webhook_deliveries (webhook_id, event_id, event_type, data, site_id, created_at)
  SELECT w.id, new_event_id, 'site.health_changed',
    jsonb_build_object(
      'site_id', s.id, 'name', s.name, 'url', s.url, 'live_url', s.live_url, 'status', s.status,
      'hidden', s.health_hidden, 'previous_state', OLD.notified_state,
      'health', jsonb_build_object('state', NEW.state, 'reason_kind', NEW.reason_kind, 'http_status', NEW.http_status,
        'moved_to', NEW.moved_to, 'last_checked_at', NEW.last_checked_at, 'last_ok_at', NEW.last_ok_at,
        'failing_since', NEW.failing_since)),
    s.id, now()
  FROM sites s JOIN webhooks w ON w.account_id = s.account_id AND 'site.health_changed' = ANY (w.events)
  WHERE s.id = NEW.site_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER site_health_announce AFTER UPDATE OF notified_state ON site_health
  FOR EACH ROW WHEN (NEW.notified_state IS DISTINCT FROM OLD.notified_state) EXECUTE FUNCTION announce_site_health_change();
--> statement-breakpoint
DO $$
DECLARE
  fn text;
  definition text;
  rewritten text;
BEGIN
  FOREACH fn IN ARRAY ARRAY['search_counts_after_insert', 'search_counts_after_update', 'search_counts_after_delete',
      'listing_after_insert', 'listing_after_update', 'listing_after_delete', 'search_hits', 'search_results'] LOOP
    SELECT pg_get_functiondef(p.oid) INTO definition FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      WHERE p.proname = fn AND n.nspname = current_schema();
    IF definition IS NULL THEN
      RAISE EXCEPTION 'health hiding: function % not found', fn;
    END IF;
    rewritten := regexp_replace(definition, '(\m[a-z_]+\.)?status = ''live''', '(\1status = ''live'' AND NOT \1health_hidden)', 'g');
    rewritten := regexp_replace(rewritten, '\mn\.status IS DISTINCT FROM o\.status', '(n.status, n.health_hidden) IS DISTINCT FROM (o.status, o.health_hidden)', 'g');
    IF rewritten = definition THEN
      RAISE EXCEPTION 'health hiding: function % has no "status = ''live''" to rewrite', fn;
    END IF;
    EXECUTE rewritten;
  END LOOP;
END $$;
--> statement-breakpoint
DROP INDEX IF EXISTS "sites_live_listing_idx";
--> statement-breakpoint
CREATE INDEX "sites_live_listing_idx" ON "sites" ("listed_at" DESC, "id" DESC)
  INCLUDE ("name", "name_vector", "search_vector", "health_hidden") WHERE "status" = 'live';
