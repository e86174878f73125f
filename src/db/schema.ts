import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  customType,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { crawlFailureKinds } from '../pipeline/crawler/crawl-result';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });
const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const createdAt = () => tstz('created_at').notNull().defaultNow();

/** An account holder. Membership fields say whether submits are covered by quota (see submissions/rules.ts). */
export const accounts = pgTable('accounts', {
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull().unique(),
  tier: text('tier', { enum: ['none', 'member', 'memberFeature'] }).notNull().default('none'),
  membershipStatus: text('membership_status').notNull().default('none'),
  membershipPeriodEnd: tstz('membership_period_end'),
  /** Who set the membership last ('operator' | 'stripe') and when: the newer state wins. */
  membershipSource: text('membership_source'),
  membershipUpdatedAt: tstz('membership_updated_at'),
  stripeCustomerId: text('stripe_customer_id').unique(),
  stripeSubscriptionId: text('stripe_subscription_id'),
  /**
   * How many of the account's API keys are not revoked. Kept by src/accounts/api-keys.ts in the same statement
   * that creates or revokes a key, so the cap on active keys is one conditional UPDATE of this row.
   */
  activeKeyCount: integer('active_key_count').notNull().default(0),
  createdAt: createdAt(),
});

/** API keys are stored only as a SHA-256 hash; `prefix` lets the owner recognise a key. */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    prefix: text('prefix').notNull(),
    hash: text('hash').notNull().unique(),
    name: text('name').notNull().default('default'),
    createdAt: createdAt(),
    lastUsedAt: tstz('last_used_at'),
    revokedAt: tstz('revoked_at'),
  },
  (t) => [index('api_keys_account_idx').on(t.accountId)],
);

export const siteStatuses = ['queued', 'crawling', 'crawl_failed', 'pending_review', 'live', 'rejected'] as const;
export type SiteStatus = (typeof siteStatuses)[number];

/** A submission past payment (or covered by membership). Unique canonical URL and name among all sites. */
export const sites = pgTable(
  'sites',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    name: text('name').notNull(),
    url: text('url').notNull(),
    canonicalUrl: text('canonical_url').notNull(),
    normalizedName: text('normalized_name').notNull(),
    status: text('status', { enum: siteStatuses }).notNull(),
    via: text('via', { enum: ['membership', 'payment'] }).notNull(),
    plan: text('plan').notNull(),
    email: text('email'),
    isFeature: boolean('is_feature').notNull().default(false),
    isSponsor: boolean('is_sponsor').notNull().default(false),
    submittedAt: tstz('submitted_at').notNull().defaultNow(),
    statusChangedAt: tstz('status_changed_at').notNull().defaultNow(),
    /** Why the latest transition happened (crawl failure kind, rejection reason); copied into site_history, so never a crawl's operator detail. */
    statusNote: text('status_note'),
    crawlAttempts: integer('crawl_attempts').notNull().default(0),
    /**
     * crawl_attempts when the submitter last asked for a retry (src/submissions/retry.ts): the attempts of the
     * current round are crawl_attempts minus this. crawl_attempts itself never goes back, so every attempt keeps
     * its own queue deduplication id.
     */
    crawlAttemptOffset: integer('crawl_attempt_offset').notNull().default(0),
    /** Retries the submitter asked for on manual_retries_on (a UTC day); at most MAX_RETRIES_PER_DAY. */
    manualRetries: integer('manual_retries').notNull().default(0),
    manualRetriesOn: date('manual_retries_on', { mode: 'string' }),
    /** The last crawl failure's operator detail (may name addresses and internal hosts); never shown to submitters. */
    crawlError: text('crawl_error'),
    /** The last crawl failure's kind: what submitters are told, via src/pipeline/crawl-error-messages.ts. */
    crawlErrorKind: text('crawl_error_kind', { enum: crawlFailureKinds }),
    /** The status the site answered, when the kind is http_error ("the site answered HTTP 500"). */
    crawlErrorHttpStatus: integer('crawl_error_http_status'),
    crawledAt: tstz('crawled_at'),
    /** Title, description, image, icon, canonical, final URL, language from the crawl. */
    metadata: jsonb('metadata').$type<Record<string, string | null>>(),
    reviewChecks: jsonb('review_checks').$type<Record<string, unknown>>(),
    reviewReason: text('review_reason'),
    reviewedAt: tstz('reviewed_at'),
    slug: text('slug').unique(),
    liveUrl: text('live_url'),
    publishedAt: tstz('published_at'),
    stripeCheckoutSessionId: text('stripe_checkout_session_id'),
    stripePaymentIntentId: text('stripe_payment_intent_id'),
    stripeSubscriptionId: text('stripe_subscription_id'),
    /** Time of the newest subscription event applied, so out-of-order deliveries cannot regress state. */
    sponsorUpdatedAt: tstz('sponsor_updated_at'),
    /**
     * The sponsorship's subscription status and the end of the period already paid for, kept exactly like
     * accounts.membership_status / membership_period_end (src/payments/membership-rules.ts): a past_due
     * sponsorship keeps its slot until that period ends (src/submissions/sponsor-slot.ts reads it).
     */
    sponsorStatus: text('sponsor_status'),
    sponsorPeriodEnd: tstz('sponsor_period_end'),
    /** Full-text document for directory search: the name weighs more than the crawled description. */
    searchVector: tsvector('search_vector').generatedAlwaysAs(
      sql`setweight(to_tsvector('english', coalesce(name, '')), 'A') || setweight(to_tsvector('english', coalesce(metadata->>'description', '')), 'B')`,
    ),
  },
  (t) => [
    uniqueIndex('sites_canonical_url_key').on(t.canonicalUrl),
    uniqueIndex('sites_normalized_name_key').on(t.normalizedName),
    index('sites_account_submitted_idx').on(t.accountId, t.submittedAt.desc(), t.id.desc()),
    index('sites_status_changed_idx').on(t.status, t.statusChangedAt),
    index('sites_search_idx').using('gin', t.searchVector),
    index('sites_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
    /** The directory's "newest first" listing and its keyset pages (src/directory/search.ts). */
    index('sites_live_listed_idx')
      .on(sql`coalesce(${t.publishedAt}, ${t.statusChangedAt})`, t.id)
      .where(sql`${t.status} = 'live'`),
  ],
);

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
    plan: text('plan').notNull(),
    email: text('email'),
    reason: text('reason').notNull(),
    /** Bumped on every replacement; the checkout idempotency key derives from it. */
    version: integer('version').notNull().default(1),
    state: text('state', { enum: ['open', 'expired', 'refunded'] }).notNull().default('open'),
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

/** One row per status change of a site, written by a trigger so no code path can forget it. */
export const siteHistory = pgTable(
  'site_history',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    siteId: uuid('site_id').notNull(),
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    note: text('note'),
    at: tstz('at').notNull().default(sql`now()`),
  },
  (t) => [
    index('site_history_site_idx').on(t.siteId, t.id),
    /** The pace of each waiting stage: exits over the last 24 hours (src/submissions/progress.ts). */
    index('site_history_at_idx').on(t.at),
  ],
);

/** Mail the local adapter "sends": the outbox is how a local user (and a test) reads sign-in codes. */
export const mailOutbox = pgTable('mail_outbox', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  createdAt: createdAt(),
});

/**
 * One-time sign-in codes for the account area, stored hashed. Each code belongs to the browser that asked
 * for it (the row is keyed by the hash of that browser's challenge cookie), so nobody else can spend its
 * tries, and an address may have several live codes (docs/account.md "Sign-in codes").
 */
export const signInCodes = pgTable(
  'sign_in_codes',
  {
    challengeHash: text('challenge_hash').primaryKey(),
    email: text('email').notNull(),
    codeHash: text('code_hash').notNull(),
    expiresAt: tstz('expires_at').notNull(),
    tries: integer('tries').notNull().default(0),
    /** Set when the right code is entered: a code works once. */
    usedAt: tstz('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('sign_in_codes_expires_idx').on(t.expiresAt)],
);

/**
 * How many codes were sent for an address in the current one-hour window, in total (client '*') and per
 * client (a peppered hash of its IP address or IPv6 /64): the bound on guesses and on mail to one inbox.
 */
export const signInSendBudgets = pgTable(
  'sign_in_send_budgets',
  {
    email: text('email').notNull(),
    client: text('client').notNull(),
    windowStart: tstz('window_start').notNull(),
    sent: integer('sent').notNull(),
  },
  (t) => [primaryKey({ columns: [t.email, t.client] }), index('sign_in_send_budgets_window_idx').on(t.windowStart)],
);

/** Browser sessions (account holders and editors); the cookie carries the token, the table its hash. */
export const webSessions = pgTable('web_sessions', {
  tokenHash: text('token_hash').primaryKey(),
  kind: text('kind', { enum: ['account', 'editor'] }).notNull(),
  accountId: uuid('account_id').references(() => accounts.id, { onDelete: 'cascade' }),
  csrfToken: text('csrf_token').notNull(),
  expiresAt: tstz('expires_at').notNull(),
  createdAt: createdAt(),
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

/**
 * OAuth clients of the MCP endpoint (docs/mcp-and-search.md "Connecting by URL (OAuth)"): registered through
 * Dynamic Client Registration (id `tdcl_…`), or a Client ID Metadata Document cached by its URL (the id).
 * Public clients only: no secret is ever issued. `name` is what the client says it is (shown as unverified).
 */
export const oauthClients = pgTable(
  'oauth_clients',
  {
    id: text('id').primaryKey(),
    kind: text('kind', { enum: ['registered', 'metadata_document'] }).notNull(),
    name: text('name'),
    redirectUris: jsonb('redirect_uris').$type<string[]>().notNull(),
    /** metadata_document: when the cached copy must be fetched again. */
    expiresAt: tstz('expires_at'),
    createdAt: createdAt(),
  },
  (t) => [index('oauth_clients_created_idx').on(t.createdAt)],
);

/** Authorization codes (stored hashed): single use, 10 minutes, bound to client, redirect URI, PKCE challenge and resource. */
export const oauthCodes = pgTable(
  'oauth_codes',
  {
    codeHash: text('code_hash').primaryKey(),
    clientId: text('client_id')
      .notNull()
      .references(() => oauthClients.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    redirectUri: text('redirect_uri').notNull(),
    codeChallenge: text('code_challenge').notNull(),
    resource: text('resource').notNull(),
    scope: text('scope').notNull(),
    expiresAt: tstz('expires_at').notNull(),
    /** Set by the one statement that redeems the code; a second redemption revokes grant_id (RFC 6749 §4.1.2). */
    usedAt: tstz('used_at'),
    grantId: uuid('grant_id'),
    createdAt: createdAt(),
  },
  (t) => [index('oauth_codes_expires_idx').on(t.expiresAt)],
);

/**
 * One consent turned into tokens: a "connected app" on /account. The grant is the refresh-token family:
 * revoking it (the person, the operator, RFC 7009, or a reused refresh token) ends every token it issued at once.
 */
export const oauthGrants = pgTable(
  'oauth_grants',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    clientId: text('client_id')
      .notNull()
      .references(() => oauthClients.id, { onDelete: 'cascade' }),
    redirectUri: text('redirect_uri').notNull(),
    scope: text('scope').notNull(),
    /** The audience (RFC 8707): our /mcp URL when it was issued; a token is accepted only by that resource. */
    resource: text('resource').notNull(),
    createdAt: createdAt(),
    lastUsedAt: tstz('last_used_at'),
    revokedAt: tstz('revoked_at'),
  },
  (t) => [index('oauth_grants_account_idx').on(t.accountId, t.createdAt)],
);

/** Access (1 hour) and refresh (30 days, rotated on every use) tokens, stored only as SHA-256 hashes. */
export const oauthTokens = pgTable(
  'oauth_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    grantId: uuid('grant_id')
      .notNull()
      .references(() => oauthGrants.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['access', 'refresh'] }).notNull(),
    scope: text('scope').notNull(),
    expiresAt: tstz('expires_at').notNull(),
    /** refresh: set when rotated (or revoked); presenting it again revokes the whole grant. */
    usedAt: tstz('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('oauth_tokens_grant_idx').on(t.grantId), index('oauth_tokens_expires_idx').on(t.expiresAt)],
);

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
  (t) => [uniqueIndex('webhooks_account_slot_key').on(t.accountId, t.slot), check('webhooks_slot_range', sql`${t.slot} BETWEEN 1 AND 5`)],
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
    state: text('state', { enum: ['pending', 'succeeded', 'failed'] }).notNull().default('pending'),
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
  (t) => [uniqueIndex('webhook_attempts_delivery_attempt_key').on(t.deliveryId, t.attempt), index('webhook_attempts_webhook_idx').on(t.webhookId, t.id)],
);

/**
 * A submitter's proposed change to the name or description of their own live tool (docs/pipeline.md "Edits").
 * The public page keeps the site's current text until an editor approves; approval copies the proposal onto
 * the site in one statement (src/pipeline/decide-edit.ts). A newer proposal supersedes a pending one, so each
 * site has at most one pending edit (the partial unique index).
 */
export const siteEdits = pgTable(
  'site_edits',
  {
    id: uuid('id').primaryKey(),
    siteId: uuid('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id').notNull(),
    /** Null when the edit leaves the name alone. */
    name: text('name'),
    normalizedName: text('normalized_name'),
    /** Null when the edit leaves the description alone. */
    description: text('description'),
    status: text('status', { enum: ['pending', 'approved', 'rejected', 'superseded'] }).notNull().default('pending'),
    /** The editor's reason (shown to the submitter as last_edit.reason). */
    reason: text('reason'),
    submittedAt: tstz('submitted_at').notNull().defaultNow(),
    decidedAt: tstz('decided_at'),
  },
  (t) => [
    uniqueIndex('site_edits_one_pending_key').on(t.siteId).where(sql`${t.status} = 'pending'`),
    index('site_edits_site_idx').on(t.siteId, t.submittedAt.desc()),
    index('site_edits_pending_idx').on(t.submittedAt).where(sql`${t.status} = 'pending'`),
  ],
);

/**
 * Directory categories, managed by operators (src/directory/categories.ts). The slug is the public key and
 * never changes; name and description may. A starter set is inserted by migration (docs/mcp-and-search.md).
 */
export const categories = pgTable('categories', {
  slug: text('slug').primaryKey(),
  name: text('name').notNull(),
  description: text('description'),
  createdAt: createdAt(),
});

/**
 * Which categories a site is in (at most 3, enforced by the writers). A join table rather than a text[] on
 * sites: the (category_slug, site_id) index drives a category-filtered search from the category's rows, the
 * primary key answers "categories of this site", and the foreign key makes DELETE of a used category fail
 * (docs/mcp-and-search.md "Categories").
 */
export const siteCategories = pgTable(
  'site_categories',
  {
    siteId: uuid('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    categorySlug: text('category_slug')
      .notNull()
      .references(() => categories.slug),
  },
  (t) => [
    primaryKey({ columns: [t.siteId, t.categorySlug] }),
    index('site_categories_category_site_idx').on(t.categorySlug, t.siteId),
  ],
);
