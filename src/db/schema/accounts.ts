import { bigserial, boolean, index, integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { tstz, createdAt } from './columns';
import { tierNames } from '../../catalog/plans';

// Accounts and how people reach them: API keys, sign-in codes and budgets, web sessions, the mail outbox.

/** An account holder. Membership fields say whether submits are covered by quota (see submissions/rules.ts). */
export const accounts = pgTable('accounts', {
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull().unique(),
  tier: text('tier', { enum: tierNames }).notNull().default(tierNames[0]),
  membershipStatus: text('membership_status').notNull().default('none'),
  membershipPeriodEnd: tstz('membership_period_end'),
  /**
   * When a subscription set to cancel at the end of its period (Stripe's `cancel_at`, the Customer Portal's
   * default, and the local billing page's) stops: shown as "ends on …". Null while it renews.
   */
  membershipEndsAt: tstz('membership_ends_at'),
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
  /** Whether the owner gets the health mails (docs/health.md "Mails and the opt-out"); the webhook goes either way. */
  healthMails: boolean('health_mails').notNull().default(true),
  /** The capability in a health mail's opt-out link (/health-mails/{token}): only ever turns those mails off or on. */
  healthMailToken: uuid('health_mail_token').notNull().defaultRandom().unique(),
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

/** Mail the local adapter "sends": the outbox is how a local user (and a test) reads sign-in codes. */
export const mailOutbox = pgTable('mail_outbox', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  /** Extra headers sent with the mail (List-Unsubscribe, List-Unsubscribe-Post on mails that honour the opt-out). */
  headers: jsonb('headers').$type<Record<string, string>>(),
  createdAt: createdAt(),
});

/**
 * An account's mail settings (docs/account.md "Mail"): status mails (published, rejected without a refund, and the
 * health mails of a later issue) honour `status_mail_off_at`; receipts, refunds and failed crawls are always sent.
 * The token is the one-click unsubscribe link's capability; a row is made when the first such mail is sent.
 */
export const accountMailSettings = pgTable('account_mail_settings', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  unsubscribeToken: uuid('unsubscribe_token').notNull().unique().defaultRandom(),
  statusMailOffAt: tstz('status_mail_off_at'),
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
