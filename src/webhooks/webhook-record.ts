import { sql } from 'drizzle-orm';
import { isoTimestamp } from '../db/sql-format';
import { isUuid } from '../ids';

/** Event types an endpoint can subscribe to; a `ping` (POST …/test) reaches every endpoint regardless. */
export const webhookEventTypes = ['site.status_changed'] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];

/** At most this many endpoints per account (the slot CHECK in src/db/schema.ts says the same). */
export const MAX_WEBHOOKS_PER_ACCOUNT = 5;

/** An endpoint as the API shows it; the secret appears only in the create answer. */
export interface WebhookRecord {
  webhook_id: string;
  url: string;
  events: WebhookEventType[];
  created_at: string;
}

export const webhookRecordColumns = sql`w.id AS webhook_id, w.url, to_jsonb(w.events) AS events, ${isoTimestamp(sql`w.created_at`)} AS created_at`;

/** Drivers hand jsonb back parsed or as text: one shape either way. */
export function toWebhookRecord(row: {
  webhook_id: string;
  url: string;
  events: unknown;
  created_at: string;
}): WebhookRecord {
  const events = typeof row.events === 'string' ? (JSON.parse(row.events) as unknown) : row.events;
  return {
    webhook_id: row.webhook_id,
    url: row.url,
    events: Array.isArray(events) ? (events as WebhookEventType[]) : [],
    created_at: row.created_at,
  };
}

/** A malformed id is simply not found (like site ids): never a 5xx from the uuid cast. */
export const isWebhookId = (value: string) => isUuid(value);
