-- Every status change of a site writes one history row, whatever statement made it, and stamps
-- status_changed_at so the sweep can find work that stopped moving. One place for the rule.
CREATE OR REPLACE FUNCTION record_site_status_change() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' OR NEW.status IS DISTINCT FROM OLD.status THEN
    INSERT INTO site_history (site_id, from_status, to_status, note)
    VALUES (NEW.id, CASE WHEN TG_OP = 'INSERT' THEN NULL ELSE OLD.status END, NEW.status, NEW.status_note);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER sites_status_history
AFTER INSERT OR UPDATE OF status ON sites
FOR EACH ROW EXECUTE FUNCTION record_site_status_change();--> statement-breakpoint
CREATE OR REPLACE FUNCTION stamp_site_status_change() RETURNS trigger AS $$
BEGIN
  IF NEW.status IS DISTINCT FROM OLD.status THEN
    NEW.status_changed_at := now();
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER sites_status_stamp
BEFORE UPDATE OF status ON sites
FOR EACH ROW EXECUTE FUNCTION stamp_site_status_change();
