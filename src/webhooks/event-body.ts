// The JSON a receiver gets (docs/webhooks.md "Events"): built from the delivery row the outbox trigger froze
// when the status changed (drizzle/0014_webhook_outbox.sql), serialised once, and signed as those exact bytes.
import { publicCrawlError } from '../crawler/crawl-error-messages';

export interface StoredEvent {
  event_id: string;
  event_type: string;
  created: string;
  data: unknown;
}

interface StoredStatusChange {
  site_id: string;
  name: string;
  url: string;
  status: string;
  previous_status: string | null;
  live_url?: string | null;
  reason?: string | null;
  crawl_error?: { kind: string | null; http_status: number | null } | null;
}

/** `{id, type, created, data}` as the raw body text; a crawl failure's reason is the submitter-facing message. */
export function eventBody(event: StoredEvent): string {
  const stored = (typeof event.data === 'string' ? JSON.parse(event.data) : event.data) as Record<string, unknown>;
  const data =
    event.event_type === 'site.status_changed' ? statusChangeData(stored as unknown as StoredStatusChange) : stored;
  return JSON.stringify({ id: event.event_id, type: event.event_type, created: event.created, data });
}

function statusChangeData(stored: StoredStatusChange) {
  const reason = stored.crawl_error
    ? publicCrawlError(stored.crawl_error.kind, stored.crawl_error.http_status).message
    : stored.reason;
  return {
    site_id: stored.site_id,
    name: stored.name,
    url: stored.url,
    status: stored.status,
    previous_status: stored.previous_status ?? null,
    ...(stored.live_url ? { live_url: stored.live_url } : {}),
    ...(reason ? { reason } : {}),
  };
}
