import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { pendingStates } from '../../catalog/payment-states';
import { tstz, createdAt } from './columns';
import { accounts } from './accounts';

// Money and its bookkeeping: unpaid submissions, our checkout sessions, quota, Stripe event ids, idempotency keys.

/**
 * Unpaid submissions, kept apart from sites: they block nobody (the first paid wins) and are read by id only.
 * `state` is open (link usable), expired (link lapsed; purged 30 days later) or refunded (paid but not applicable).
 */
export const pendingSubmissions = pgTable(
  'pending_submissions',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    name: text('name').notNull(),
    url: text('url').notNull(),
    canonicalUrl: text('canonical_url').notNull(),
    normalizedName: text('normalized_name').notNull(),
    /** The MCP endpoint the submitter gave, copied to sites.mcp_url when the payment promotes the record. */
    mcpUrl: text('mcp_url'),
    plan: text('plan').notNull(),
    email: text('email'),
    reason: text('reason').notNull(),
    /** Bumped on every replacement; the checkout idempotency key derives from it. */
    version: integer('version').notNull().default(1),
    state: text('state', { enum: pendingStates }).notNull().default('open'),
    stateNote: text('state_note'),
    checkoutSessionId: text('checkout_session_id').notNull(),
    checkoutUrl: text('checkout_url').notNull(),
    expiresAt: tstz('expires_at').notNull(),
    submittedAt: tstz('submitted_at').notNull().defaultNow(),
    /** Category slugs the submitter chose (at most 3); copied to site_categories when the payment promotes the record. */
    categories: text('categories').array().notNull().default(sql`'{}'::text[]`),
  },
  (t) => [
    uniqueIndex('pending_account_canonical_url_key').on(t.accountId, t.canonicalUrl),
    uniqueIndex('pending_checkout_session_key').on(t.checkoutSessionId),
    index('pending_expires_idx').on(t.expiresAt),
  ],
);

/**
 * Every Checkout Session this service created (docs/payments.md "Only our own sessions count"): a session,
 * subscription or invoice event changes something only when it belongs to one of these rows, and what was
 * bought (plan or tier, mode, amount, currency) is read from here, never from the event's metadata. Written
 * in the same statement as the pending record it pays for (or on its own for a membership checkout).
 */
export const checkoutSessions = pgTable(
  'checkout_sessions',
  {
    /** Stripe's cs_… id, or the local checkout's cs_local_…. */
    id: text('id').primaryKey(),
    purpose: text('purpose', { enum: ['submission', 'membership'] }).notNull(),
    accountId: uuid('account_id').notNull(),
    /** The pending record (= site id) a submission checkout pays for; null for a membership. */
    siteId: uuid('site_id'),
    /** The plan as the caller spelled it (basic, featured, sponsored, pro), or the tier (member, memberFeature). */
    plan: text('plan').notNull(),
    mode: text('mode', { enum: ['payment', 'subscription'] }).notNull(),
    /**
     * In the currency's smallest unit, as Stripe computed it when the session was created. Null only on rows
     * backfilled from records made before this table existed (their amount was never kept, so it is not compared).
     */
    amountTotal: bigint('amount_total', { mode: 'number' }),
    currency: text('currency'),
    /** Created with allow_promotion_codes: a 100 % discount (amount_total 0, no_payment_required) is accepted. */
    promotionCodes: boolean('promotion_codes').notNull().default(false),
    /**
     * A reference we put into the subscription's metadata, so subscription and invoice events that arrive
     * before the completed session (which tells us the subscription id) are still recognised as ours.
     */
    ref: text('ref'),
    /** The subscription this session started, once known (completed session or the first event carrying `ref`). */
    subscriptionId: text('subscription_id'),
    /**
     * When that subscription was deleted (the event's time). Deleted before the session's payment was applied
     * (out-of-order delivery), the promotion queues the site without the sponsor slot.
     */
    subscriptionDeletedAt: tstz('subscription_deleted_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('checkout_sessions_ref_key').on(t.ref),
    index('checkout_sessions_subscription_idx').on(t.subscriptionId),
    index('checkout_sessions_created_idx').on(t.createdAt),
  ],
);

/** Submits covered by membership, per account and UTC day. */
export const quotaUsage = pgTable(
  'quota_usage',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    used: integer('used').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.day] })],
);

/** Stripe event ids already applied: a redelivery finds its id here and changes nothing. */
export const stripeEvents = pgTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  summary: text('summary'),
  receivedAt: tstz('received_at').notNull().defaultNow(),
});

/**
 * Requests to recompute `canonical_url` / `normalized_name` of stored rows after the rules in
 * src/submissions/url.ts or name.ts changed (the confusables mapping cannot run in SQL). A migration inserts a
 * row; the first open that migrates runs the backfill and stamps `done_at` with its report (docs/deploy.md
 * "Duplicate keys").
 */
export const duplicateKeyBackfills = pgTable('duplicate_key_backfills', {
  rules: text('rules').primaryKey(),
  requestedAt: tstz('requested_at').notNull().defaultNow(),
  doneAt: tstz('done_at'),
  report: jsonb('report').$type<Record<string, unknown>>(),
});

/**
 * Idempotency-Key records of submit (docs/idempotency.md): one per account and key, kept 24 hours. A request
 * claims its key with one conditional INSERT (state `in_progress` until `locked_until`, so a crashed request
 * frees it), then stores the verb's outcome (`completed`); a repeat replays `outcome` without running the verb.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** SHA-256 of the operation and its validated input: the same key with another body is refused. */
    requestHash: text('request_hash').notNull(),
    state: text('state', { enum: ['in_progress', 'completed'] }).notNull(),
    /** Which claim holds the key; the outcome is stored (or the key released) only under the same token. */
    claimToken: text('claim_token').notNull(),
    lockedUntil: tstz('locked_until'),
    /** `{result}` or `{error: {code, message, site_id?}}`, wire-neutral; null while in progress. */
    outcome: jsonb('outcome'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);
