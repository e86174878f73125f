import { sql } from 'drizzle-orm';
import {
  bigserial,
  check,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { tstz, createdAt } from './columns';
import { accounts } from './accounts';

// Submitters' webhook endpoints, the outbox of deliveries, and each attempt (docs/webhooks.md).

/**
 * An HTTPS endpoint an account registered for its submissions' events (docs/webhooks.md). At most five per
 * account: `slot` is 1..5 and unique per account, so concurrent creates cannot pass the cap (src/webhooks/create-webhook.ts).
 */
export const webhooks = pgTable(
  'webhooks',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    slot: integer('slot').notNull(),
    url: text('url').notNull(),
    /** Event types it receives (a `ping` from POST …/test always reaches it). */
    events: text('events').array().notNull(),
    /**
     * The `whsec_…` signing secret. Kept readable (we must sign with it), shown to the account only in the
     * create answer; it authenticates us to the receiver, never anyone to us (docs/webhooks.md).
     */
    secret: text('secret').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('webhooks_account_slot_key').on(t.accountId, t.slot),
    check('webhooks_slot_range', sql`${t.slot} BETWEEN 1 AND 5`),
  ],
);

/**
 * One event for one endpoint: written by triggers in the same statement as the status change it announces
 * (drizzle custom migration `webhook_outbox`), so no code path can forget one, and unique per (endpoint, event).
 * The job step src/webhooks/deliver-webhook.ts sends it; each try is a webhook_attempts row.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    webhookId: uuid('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    /** `evt_…`: the same for every endpoint that receives one status change (the receiver's deduplication key). */
    eventId: text('event_id').notNull(),
    eventType: text('event_type').notNull(),
    /** The event's `data`, frozen when the status changed. */
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    /** The submission it is about (null for a ping), for operators tracing a site's events. */
    siteId: uuid('site_id'),
    /** The event's `created`: when the status changed. */
    createdAt: createdAt(),
    state: text('state', { enum: ['pending', 'succeeded', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    /** When it was handed to the queue; null until then (the sweep dispatches what nobody did). */
    dispatchedAt: tstz('dispatched_at'),
    /** When the next attempt is due; a pending delivery long past it lost its queue message and is re-dispatched. */
    nextAttemptAt: tstz('next_attempt_at').notNull().defaultNow(),
    /** An attempt in flight holds the delivery until then, so a duplicate job delivery does not send it twice at once. */
    leasedUntil: tstz('leased_until'),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_event_key').on(t.webhookId, t.eventId),
    // src/webhooks/dispatch.ts claims the undispatched rows oldest first.
    index('webhook_deliveries_undispatched_idx').on(t.createdAt).where(sql`${t.dispatchedAt} IS NULL`),
    index('webhook_deliveries_pending_idx').on(t.nextAttemptAt).where(sql`${t.state} = 'pending'`),
    index('webhook_deliveries_created_idx').on(t.createdAt),
  ],
);

/** One try of a delivery: what the receiver answered (or why nothing was sent) and when the next try is due. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    webhookId: uuid('webhook_id').notNull(),
    attempt: integer('attempt').notNull(),
    statusCode: integer('status_code'),
    /** Why the try failed, in words that name no address of ours (src/webhooks/attempt-errors.ts); null on a 2xx. */
    error: text('error'),
    succeeded: boolean('succeeded').notNull(),
    durationMs: integer('duration_ms').notNull(),
    nextRetryAt: tstz('next_retry_at'),
    at: tstz('at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('webhook_attempts_delivery_attempt_key').on(t.deliveryId, t.attempt),
    index('webhook_attempts_webhook_idx').on(t.webhookId, t.id),
  ],
);
