-- Withdrawal by the owner and renames that keep their links (docs/pipeline.md "Withdrawal", "Renames").
--
-- A withdrawn listing is `rejected` with withdrawn_at set. It keeps its row, its slug (its page answers 410) and its
-- statistics, but no longer holds its URL or name: listing it again is a new submission, so the two duplicate keys
-- are unique among the sites that are not withdrawn only.
ALTER TABLE "sites" ADD COLUMN "withdrawn_at" timestamp with time zone;--> statement-breakpoint
-- When the withdrawal asked the payment provider to end the sponsorship at the end of the period already paid for.
ALTER TABLE "sites" ADD COLUMN "sponsor_cancel_requested_at" timestamp with time zone;--> statement-breakpoint
DROP INDEX "sites_canonical_url_key";--> statement-breakpoint
CREATE UNIQUE INDEX "sites_canonical_url_key" ON "sites" USING btree ("canonical_url") WHERE "sites"."withdrawn_at" IS NULL;--> statement-breakpoint
DROP INDEX "sites_normalized_name_key";--> statement-breakpoint
CREATE UNIQUE INDEX "sites_normalized_name_key" ON "sites" USING btree ("normalized_name") WHERE "sites"."withdrawn_at" IS NULL;--> statement-breakpoint
-- Every slug a site was ever given, its current one included. The primary key is the rule "a slug is never given to
-- another tool": an old slug keeps answering 301 to its tool's current slug, and a click or badge load counted
-- under it still reaches the tool (src/stats/roll-up.ts joins here).
CREATE TABLE "site_slugs" (
	"slug" text PRIMARY KEY NOT NULL,
	"site_id" uuid NOT NULL,
	"given_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
ALTER TABLE "site_slugs" ADD CONSTRAINT "site_slugs_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "site_slugs_site_idx" ON "site_slugs" USING btree ("site_id");--> statement-breakpoint
INSERT INTO site_slugs (slug, site_id, given_at)
  SELECT slug, id, coalesce(published_at, status_changed_at) FROM sites WHERE slug IS NOT NULL
  ON CONFLICT (slug) DO NOTHING;--> statement-breakpoint
-- Whatever statement gives a site a slug (publish, an approved rename) records it here IN THE SAME STATEMENT, and
-- fails with a unique violation on site_slugs_pkey when the slug once belonged to another tool: the writer then
-- picks the next free slug, as it does when sites.slug itself is taken.
CREATE OR REPLACE FUNCTION record_site_slug() RETURNS trigger AS $$
BEGIN
  IF NEW.slug IS NOT NULL AND (TG_OP = 'INSERT' OR NEW.slug IS DISTINCT FROM OLD.slug) THEN
    INSERT INTO site_slugs (slug, site_id) VALUES (NEW.slug, NEW.id) ON CONFLICT (slug) DO NOTHING;
    IF NOT EXISTS (SELECT 1 FROM site_slugs WHERE slug = NEW.slug AND site_id = NEW.id) THEN
      RAISE EXCEPTION 'the slug % belongs to another tool', NEW.slug
        USING ERRCODE = 'unique_violation', CONSTRAINT = 'site_slugs_pkey';
    END IF;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER sites_slug_history
AFTER INSERT OR UPDATE OF slug ON sites
FOR EACH ROW EXECUTE FUNCTION record_site_slug();--> statement-breakpoint
-- The webhook outbox learns `site.withdrawn` (docs/webhooks.md): the same statement that moves a withdrawn listing
-- to rejected writes one delivery per endpoint subscribed to it, beside the site.status_changed one.
CREATE OR REPLACE FUNCTION announce_site_withdrawal() RETURNS trigger AS $$
DECLARE
  new_event_id text := 'evt_' || replace(gen_random_uuid()::text, '-', '');
BEGIN
  IF NEW.to_status = 'rejected' AND NEW.from_status = 'live' THEN
    INSERT INTO webhook_deliveries (webhook_id, event_id, event_type, data, site_id, created_at)
    SELECT w.id, new_event_id, 'site.withdrawn',
      jsonb_build_object('site_id', s.id, 'name', s.name, 'url', s.url, 'status', 'rejected', 'previous_status', 'live',
        'reason', s.review_reason,
        'withdrawn_at', to_char(s.withdrawn_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
      s.id, NEW.at
    FROM sites s JOIN webhooks w ON w.account_id = s.account_id
    WHERE s.id = NEW.site_id AND s.withdrawn_at IS NOT NULL AND 'site.withdrawn' = ANY (w.events)
    ON CONFLICT (webhook_id, event_id) DO NOTHING;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER site_history_withdrawal_webhooks
AFTER INSERT ON site_history
FOR EACH ROW EXECUTE FUNCTION announce_site_withdrawal();
