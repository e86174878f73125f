import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
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
import { crawlFailureKinds } from '../../catalog/crawl-failure-kinds';
import { editStatuses, siteStatuses } from '../../catalog/site-statuses';
import { tsvector, tstz, createdAt } from './columns';
import { accounts } from './accounts';

// Submissions past payment and what hangs off them: history, edits, categories.

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
    /** The listing's remote MCP endpoint (streamable HTTP or SSE), optional; probed at crawl and re-check (site_mcp). */
    mcpUrl: text('mcp_url'),
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
    /** The last crawl failure's kind: what submitters are told, via src/crawler/crawl-error-messages.ts. */
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
    /**
     * A paid submission rejected before it ever went live (REFUND_ON_REJECTION, docs/payments.md "Refund on
     * rejection"): 'due' from the rejecting statement until the refund job got Stripe's refund, then 'refunded'
     * with the refund's id, amount and currency as Stripe answered. Null for everything else.
     */
    refundState: text('refund_state', { enum: ['due', 'refunded'] }),
    refundId: text('refund_id'),
    refundAmount: integer('refund_amount'),
    refundCurrency: text('refund_currency'),
    refundedAt: tstz('refunded_at'),
    /** Time of the newest subscription event applied, so out-of-order deliveries cannot regress state. */
    sponsorUpdatedAt: tstz('sponsor_updated_at'),
    /**
     * The sponsorship's subscription status and the end of the period already paid for, kept exactly like
     * accounts.membership_status / membership_period_end (src/payments/membership-rules.ts): a past_due
     * sponsorship keeps its slot until that period ends (src/directory/sponsor-slot.ts reads it).
     */
    sponsorStatus: text('sponsor_status'),
    sponsorPeriodEnd: tstz('sponsor_period_end'),
    /**
     * When the owner withdrew the listing (src/submissions/withdraw.ts): it is then `rejected` for good, its page
     * answers 410, and it no longer holds its URL or name (the two unique keys below skip withdrawn rows).
     */
    withdrawnAt: tstz('withdrawn_at'),
    /** When a withdrawal asked the payment provider to end the sponsorship at the end of the period paid for. */
    sponsorCancelRequestedAt: tstz('sponsor_cancel_requested_at'),
    /**
     * Full-text document for directory search: the name weighs more than the crawled description; plus one
     * lexeme `#<slug>` per category (no query word, whole or typed halfway, can match it), so a
     * category-filtered search is one GIN lookup that intersects the word and category lists
     * (src/directory/search-keys.ts `inCategory`).
     */
    searchVector: tsvector('search_vector').generatedAlwaysAs(
      sql`setweight(to_tsvector('english', coalesce(name, '')), 'A') || setweight(to_tsvector('english', coalesce(metadata->>'description', '')), 'B') || search_category_lexemes(category_slugs)`,
    ),
    /**
     * The name alone, for the search tier "every word in the name" (docs/mcp-and-search.md "Ranking"), plus the
     * same category lexemes as search_vector, so a category-filtered name lookup is one GIN lookup too.
     */
    nameVector: tsvector('name_vector').generatedAlwaysAs(
      sql`to_tsvector('english', coalesce(name, '')) || search_category_lexemes(category_slugs)`,
    ),
    /**
     * The site's category slugs, sorted: a copy of its site_categories rows kept by a trigger
     * (drizzle/*_search_derived_columns.sql) for search_vector's category lexemes, so search never probes
     * site_categories per candidate. site_categories stays the one place that is written.
     */
    /**
     * When the tool was listed, the directory's "newest first" key: published_at, set by the pipeline, with the
     * status change time standing in defensively. Stored so an index can carry it for index-only scans.
     */
    listedAt: tstz('listed_at').generatedAlwaysAs(sql`coalesce(published_at, status_changed_at)`),
    categorySlugs: text('category_slugs').array().notNull().default(sql`'{}'::text[]`),
    /**
     * Hidden by the re-check (docs/health.md): out of search, categories, the home page and the sitemap while the
     * page stays reachable with a notice; the status stays live. Every listing read says `NOT health_hidden`.
     */
    healthHidden: boolean('health_hidden').notNull().default(false),
  },
  (t) => [
    // A withdrawn listing keeps its row but not its URL or name: listing it again is a new submission.
    uniqueIndex('sites_canonical_url_key').on(t.canonicalUrl).where(sql`${t.withdrawnAt} IS NULL`),
    uniqueIndex('sites_normalized_name_key').on(t.normalizedName).where(sql`${t.withdrawnAt} IS NULL`),
    index('sites_account_submitted_idx').on(t.accountId, t.submittedAt.desc(), t.id.desc()),
    index('sites_status_changed_idx').on(t.status, t.statusChangedAt),
    // Search reads live tools only (src/directory/search-statements.ts), so its indexes hold live rows only.
    index('sites_live_search_idx').using('gin', t.searchVector).where(sql`${t.status} = 'live'`),
    index('sites_live_name_vector_idx').using('gin', t.nameVector).where(sql`${t.status} = 'live'`),
    index('sites_live_lower_name_idx').on(sql`lower(${t.name})`).where(sql`${t.status} = 'live'`),
    // The review's duplicate check finds a live tool whose crawl landed on the same address (src/pipeline/review-site.ts).
    index('sites_live_final_canonical_idx')
      .on(sql`(${t.metadata}->>'finalCanonical')`)
      .where(sql`${t.status} = 'live'`),
    // The directory's listing index, sites_live_listing_idx (listed_at DESC, id DESC) INCLUDE (name, name_vector,
    // search_vector) WHERE live, is created in SQL (drizzle/*_search_derived_columns.sql): drizzle
    // cannot declare INCLUDE. It serves "newest first", keyset pages, and search's recent window by index-only scans.
    /**
     * The sponsored slot of the home and category pages (src/directory/browse.ts): the few live sponsors,
     * newest first, without walking every live tool to find them.
     */
    index('sites_live_sponsor_idx').on(t.listedAt, t.id).where(sql`${t.status} = 'live' AND ${t.isSponsor}`),
    /** The sweep's look for refunds whose job was lost (src/jobs/sweep.ts): few rows, ever. */
    index('sites_refund_due_idx').on(t.statusChangedAt).where(sql`${t.refundState} = 'due'`),
  ],
);

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

/**
 * Every slug a site was ever given, its current one (sites.slug) included, recorded by a trigger whatever statement
 * gives one (drizzle/*_withdrawal_and_slug_history.sql). The primary key is the rule that a slug never goes to another
 * tool; an old slug answers 301 to the tool's current one (src/directory/slug-history.ts).
 */
export const siteSlugs = pgTable(
  'site_slugs',
  {
    slug: text('slug').primaryKey(),
    siteId: uuid('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    givenAt: tstz('given_at').notNull().defaultNow(),
  },
  (t) => [index('site_slugs_site_idx').on(t.siteId)],
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
    status: text('status', { enum: editStatuses }).notNull().default('pending'),
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
  /**
   * Live tools in the category, kept by a trigger on sites (drizzle/*_listing_version.sql): the home page and
   * GET /api/v1/categories read it instead of counting every live tool's categories on each view.
   */
  liveTools: integer('live_tools').notNull().default(0),
  /** Other words that find the category's tools in search (lower-case single words; docs/mcp-and-search.md "Categories"). */
  synonyms: text('synonyms').array().notNull().default(sql`'{}'::text[]`),
  /** The lexemes of the name's words and the synonyms: a query word with one of them finds the category's tools. */
  searchTerms: tsvector('search_terms').generatedAlwaysAs(sql`search_category_terms(name, synonyms)`),
});

/**
 * One row: a number that grows whenever anything the public pages show changes (a live tool appears, changes or
 * leaves; a category changes), bumped by triggers (drizzle/*_listing_version.sql). Cached public pages are kept
 * with the number they were rendered at and served only while it is still current (functions/middleware/page-cache.ts).
 */
export const listingVersion = pgTable(
  'listing_version',
  {
    id: boolean('id').primaryKey().default(true),
    version: bigint('version', { mode: 'number' }).notNull().default(0),
  },
  (t) => [check('listing_version_one_row', sql`${t.id}`)],
);

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
