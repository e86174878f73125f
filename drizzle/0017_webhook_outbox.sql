-- The webhook outbox (docs/webhooks.md "Where events come from"). Every status change of a site already writes
-- one site_history row, whatever statement made it (0002_site_history_trigger). This trigger turns that row into
-- one delivery per endpoint of the site's account IN THE SAME STATEMENT: no code path can forget an event, and a
-- change that did not happen (a duplicate job delivery that finds nothing to do) announces nothing. The event id
-- is drawn once per change, so every endpoint receives the same evt_… for it. `data` is frozen here; a crawl
-- failure keeps its kind and the site's HTTP status, which src/webhooks/event-body.ts turns into the words
-- submitters are told (src/pipeline/crawl-error-messages.ts), so no operator detail ever leaves.
CREATE OR REPLACE FUNCTION announce_site_status_change() RETURNS trigger AS $$
DECLARE
  new_event_id text := 'evt_' || replace(gen_random_uuid()::text, '-', '');
BEGIN
  INSERT INTO webhook_deliveries (webhook_id, event_id, event_type, data, site_id, created_at)
  SELECT w.id, new_event_id, 'site.status_changed',
    jsonb_build_object(
      'site_id', s.id, 'name', s.name, 'url', s.url, 'status', NEW.to_status,
      -- A paid submission enters sites already queued: its first event says it came from pending_payment.
      'previous_status', COALESCE(NEW.from_status, CASE WHEN s.via = 'payment' THEN 'pending_payment' END),
      'live_url', CASE WHEN NEW.to_status = 'live' THEN s.live_url END,
      'reason', CASE WHEN NEW.to_status = 'rejected' THEN s.review_reason END,
      'crawl_error', CASE WHEN NEW.to_status = 'crawl_failed'
        THEN jsonb_build_object('kind', s.crawl_error_kind, 'http_status', s.crawl_error_http_status) END),
    s.id, NEW.at
  FROM sites s JOIN webhooks w ON w.account_id = s.account_id
  WHERE s.id = NEW.site_id AND 'site.status_changed' = ANY (w.events)
  ON CONFLICT (webhook_id, event_id) DO NOTHING;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER site_history_webhooks
AFTER INSERT ON site_history
FOR EACH ROW EXECUTE FUNCTION announce_site_status_change();--> statement-breakpoint
-- A paid submission whose payment could not be applied is refunded and reads as rejected with the reason
-- (docs/payments.md); it never became a site, so its change is announced from pending_submissions.
CREATE OR REPLACE FUNCTION announce_refunded_submission() RETURNS trigger AS $$
DECLARE
  new_event_id text := 'evt_' || replace(gen_random_uuid()::text, '-', '');
BEGIN
  IF NEW.state = 'refunded' AND OLD.state IS DISTINCT FROM 'refunded' THEN
    INSERT INTO webhook_deliveries (webhook_id, event_id, event_type, data, site_id, created_at)
    SELECT w.id, new_event_id, 'site.status_changed',
      jsonb_build_object(
        'site_id', NEW.id, 'name', NEW.name, 'url', NEW.url, 'status', 'rejected',
        'previous_status', 'pending_payment', 'live_url', NULL,
        'reason', COALESCE(NEW.state_note, 'The payment could not be applied and was refunded.')),
      NEW.id, now()
    FROM webhooks w
    WHERE w.account_id = NEW.account_id AND 'site.status_changed' = ANY (w.events)
    ON CONFLICT (webhook_id, event_id) DO NOTHING;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER pending_submissions_refund_webhooks
AFTER UPDATE OF state ON pending_submissions
FOR EACH ROW EXECUTE FUNCTION announce_refunded_submission();
