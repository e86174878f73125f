-- The change feed of every listing (issue 33 point 4, docs/change-feed.md): GET /api/v1/changes serves these rows.
--
-- 1. listing_changes: one row per listing that appeared (became listed: live and not hidden by the re-check), changed
--    (a public field changed while listed) or left (withdrawn, taken down, hidden, deleted). Written by row-level
--    AFTER triggers whose WHEN clauses compare OLD and NEW public columns, so the work is one insert per row a
--    statement touches that matters, and no code path can forget one. Nothing is coalesced: each change is a row.
-- 2. The feed's order is (position_xid, id), with position_xid the writing transaction's id (xid8), or the site's
--    previous position when later. A reader serves only rows whose position is below the oldest running
--    transaction (pg_snapshot_xmin(pg_current_snapshot())): every row that could still commit comes after them, so a
--    poller that read past a position can never miss a row committed later (a plain sequence could: a number taken
--    by a transaction that commits later would be skipped).
-- 3. listing_change_horizon: the newest position the retention sweep deleted; a cursor before it is too old.
CREATE TABLE "listing_change_horizon" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"position_xid" "xid8" DEFAULT '0'::xid8 NOT NULL,
	"change_id" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "listing_change_horizon_one_row" CHECK ("listing_change_horizon"."id")
);
--> statement-breakpoint
CREATE TABLE "listing_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"position_xid" "xid8" NOT NULL,
	"site_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"slug" text,
	"previous_slug" text,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "listing_changes_kind_check" CHECK ("listing_changes"."kind" IN ('appeared', 'changed', 'left'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "listing_changes_position_idx" ON "listing_changes" USING btree ("position_xid","id");--> statement-breakpoint
CREATE INDEX "listing_changes_site_idx" ON "listing_changes" USING btree ("site_id","position_xid");--> statement-breakpoint
CREATE INDEX "listing_changes_changed_at_idx" ON "listing_changes" USING btree ("changed_at");--> statement-breakpoint
INSERT INTO "listing_change_horizon" ("id") VALUES (true);
--> statement-breakpoint
-- Whether a row of sites is listed: what every public list shows (live, and not hidden by the re-check).
CREATE FUNCTION listing_is_listed(status text, health_hidden boolean) RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT status = 'live' AND NOT health_hidden
$$;
--> statement-breakpoint
-- The sponsor mark as the public record computes it (src/directory/sponsor-slot.ts, the same rule): a renewal that
-- only moves the period's end is no change of the listing.
CREATE FUNCTION listing_sponsor_shown(is_sponsor boolean, sponsor_status text, sponsor_period_end timestamptz) RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT is_sponsor AND CASE
    WHEN sponsor_status IS NULL THEN true
    WHEN sponsor_status = 'past_due' THEN coalesce(sponsor_period_end > now(), false)
    WHEN sponsor_status IN ('active', 'trialing') THEN sponsor_period_end IS NULL OR sponsor_period_end > now()
    ELSE false END
$$;
--> statement-breakpoint
-- Appends one change. Its position is the writing transaction's id, or the position of the site's previous change
-- when that is later: a transaction that began earlier but wrote the site after another one committed (it waited on
-- the row's lock) comes after it in the feed, as it did in time. One probe of listing_changes_site_idx.
CREATE FUNCTION listing_change_append(site uuid, change_kind text, change_slug text, previous text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  own xid8 := pg_current_xact_id();
  prior xid8;
BEGIN
  SELECT c.position_xid INTO prior FROM listing_changes c WHERE c.site_id = site ORDER BY c.position_xid DESC LIMIT 1;
  INSERT INTO listing_changes (position_xid, site_id, kind, slug, previous_slug)
    VALUES (CASE WHEN prior IS NOT NULL AND prior > own THEN prior ELSE own END, site, change_kind, change_slug, previous);
END $$;
--> statement-breakpoint
-- One row of sites that the WHEN clauses below let through: it was listed, is listed, or both (then a public field
-- changed). Row-level, so the work is one insert per row a statement touches that matters to the feed.
CREATE FUNCTION record_listing_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  was_listed boolean := TG_OP <> 'INSERT' AND listing_is_listed(OLD.status, OLD.health_hidden);
  now_listed boolean := TG_OP <> 'DELETE' AND listing_is_listed(NEW.status, NEW.health_hidden);
BEGIN
  IF was_listed AND now_listed THEN
    PERFORM listing_change_append(NEW.id, 'changed', NEW.slug,
      CASE WHEN OLD.slug IS DISTINCT FROM NEW.slug THEN OLD.slug END);
  ELSIF now_listed THEN
    PERFORM listing_change_append(NEW.id, 'appeared', NEW.slug,
      CASE WHEN TG_OP = 'UPDATE' AND OLD.slug IS DISTINCT FROM NEW.slug THEN OLD.slug END);
  ELSIF was_listed THEN
    PERFORM listing_change_append(OLD.id, 'left', OLD.slug, NULL);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER sites_listing_changes_insert AFTER INSERT ON sites
  FOR EACH ROW WHEN (listing_is_listed(NEW.status, NEW.health_hidden)) EXECUTE FUNCTION record_listing_change();
--> statement-breakpoint
CREATE TRIGGER sites_listing_changes_delete AFTER DELETE ON sites
  FOR EACH ROW WHEN (listing_is_listed(OLD.status, OLD.health_hidden)) EXECUTE FUNCTION record_listing_change();
--> statement-breakpoint
-- What the public tool record shows (src/directory/tool-record.ts) and the pages add (the crawled title); the owner
-- and the host of the canonical URL decide the Verified mark (a rewrite of stored keys that keeps the host, like the
-- duplicate-key backfill, is no change). A change of site_categories reaches sites.category_slugs (kept by
-- the trigger of drizzle/0025), so it is a change here. Health details (checked every day) are not: hiding and
-- restoring are `left` and `appeared`.
CREATE TRIGGER sites_listing_changes_update AFTER UPDATE ON sites
  FOR EACH ROW WHEN (
    (listing_is_listed(OLD.status, OLD.health_hidden) OR listing_is_listed(NEW.status, NEW.health_hidden)) AND (
      listing_is_listed(OLD.status, OLD.health_hidden) IS DISTINCT FROM listing_is_listed(NEW.status, NEW.health_hidden)
      OR OLD.slug IS DISTINCT FROM NEW.slug OR OLD.name IS DISTINCT FROM NEW.name OR OLD.url IS DISTINCT FROM NEW.url
      OR OLD.live_url IS DISTINCT FROM NEW.live_url OR OLD.published_at IS DISTINCT FROM NEW.published_at
      OR OLD.metadata->>'title' IS DISTINCT FROM NEW.metadata->>'title'
      OR OLD.metadata->>'description' IS DISTINCT FROM NEW.metadata->>'description'
      OR OLD.metadata->>'image' IS DISTINCT FROM NEW.metadata->>'image'
      OR OLD.metadata->>'icon' IS DISTINCT FROM NEW.metadata->>'icon'
      OR OLD.category_slugs IS DISTINCT FROM NEW.category_slugs OR OLD.mcp_url IS DISTINCT FROM NEW.mcp_url
      OR OLD.is_feature IS DISTINCT FROM NEW.is_feature
      OR listing_sponsor_shown(OLD.is_sponsor, OLD.sponsor_status, OLD.sponsor_period_end)
        IS DISTINCT FROM listing_sponsor_shown(NEW.is_sponsor, NEW.sponsor_status, NEW.sponsor_period_end)
      OR OLD.account_id IS DISTINCT FROM NEW.account_id
      OR substring(OLD.canonical_url from '^[a-z][a-z0-9+.-]*://([^/:?#]+)') IS DISTINCT FROM substring(NEW.canonical_url from '^[a-z][a-z0-9+.-]*://([^/:?#]+)')))
  EXECUTE FUNCTION record_listing_change();
--> statement-breakpoint
-- The Verified mark of a listing follows its owner's proofs (src/domains/verified-mark.ts): a proof verified, lapsed
-- or removed is a change of each listed site of that account under the domain. Proofs change rarely, and the
-- account's sites are found by sites_account_submitted_idx.
CREATE FUNCTION record_proof_listing_changes() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  proof record;
  site record;
BEGIN
  IF TG_OP = 'DELETE' THEN proof := OLD; ELSE proof := NEW; END IF;
  FOR site IN
    SELECT s.id, s.slug FROM sites s
    WHERE s.account_id = proof.account_id AND listing_is_listed(s.status, s.health_hidden)
      AND (substring(s.canonical_url from '^[a-z][a-z0-9+.-]*://([^/:?#]+)') = proof.domain
        OR right(substring(s.canonical_url from '^[a-z][a-z0-9+.-]*://([^/:?#]+)'), length(proof.domain) + 1) = '.' || proof.domain)
  LOOP
    PERFORM listing_change_append(site.id, 'changed', site.slug, NULL);
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Whether a proof gives the mark now: verified and unexpired (the rule of src/domains/verified-mark.ts).
CREATE FUNCTION domain_proof_marks(status text, expires_at timestamptz) RETURNS boolean LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT status = 'verified' AND (expires_at IS NULL OR expires_at > now())
$$;
--> statement-breakpoint
CREATE TRIGGER domain_proofs_listing_changes_insert AFTER INSERT ON domain_proofs
  FOR EACH ROW WHEN (domain_proof_marks(NEW.status, NEW.expires_at)) EXECUTE FUNCTION record_proof_listing_changes();
--> statement-breakpoint
CREATE TRIGGER domain_proofs_listing_changes_delete AFTER DELETE ON domain_proofs
  FOR EACH ROW WHEN (domain_proof_marks(OLD.status, OLD.expires_at)) EXECUTE FUNCTION record_proof_listing_changes();
--> statement-breakpoint
-- A renewal that only moves expires_at further is no change of the mark.
CREATE TRIGGER domain_proofs_listing_changes_update AFTER UPDATE ON domain_proofs
  FOR EACH ROW WHEN (domain_proof_marks(OLD.status, OLD.expires_at) IS DISTINCT FROM domain_proof_marks(NEW.status, NEW.expires_at)
    OR (domain_proof_marks(NEW.status, NEW.expires_at) AND OLD.method IS DISTINCT FROM NEW.method))
  EXECUTE FUNCTION record_proof_listing_changes();
--> statement-breakpoint
-- A listing's MCP server is part of its record once probed: site_mcp.changed_at moves when its public facts change.
CREATE FUNCTION record_mcp_listing_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  site record;
BEGIN
  SELECT s.id, s.slug INTO site FROM sites s WHERE s.id = NEW.site_id AND listing_is_listed(s.status, s.health_hidden);
  IF FOUND THEN
    PERFORM listing_change_append(site.id, 'changed', site.slug, NULL);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER site_mcp_listing_changes_insert AFTER INSERT ON site_mcp
  FOR EACH ROW EXECUTE FUNCTION record_mcp_listing_change();
--> statement-breakpoint
CREATE TRIGGER site_mcp_listing_changes_update AFTER UPDATE OF changed_at ON site_mcp
  FOR EACH ROW WHEN (NEW.changed_at IS DISTINCT FROM OLD.changed_at) EXECUTE FUNCTION record_mcp_listing_change();
