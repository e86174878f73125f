import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { tstz, createdAt } from './columns';
import { accounts } from './accounts';
import { sites } from './sites';

// Domains accounts prove, and the claims made with those proofs (docs/ownership.md).

/**
 * One account's hold on one registrable domain (src/domain-names.ts): its token, and whether and how it is proven.
 * Several accounts may hold the same domain (a team), each with its own token; an account holds a domain once.
 */
export const domainProofs = pgTable(
  'domain_proofs',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** The registrable domain in its ASCII (A-label), lower-case form. */
    domain: text('domain').notNull(),
    /** What the DNS record and the file must hold; not a secret (it is published), so kept as is. */
    token: text('token').notNull(),
    status: text('status', { enum: ['pending', 'verified'] })
      .notNull()
      .default('pending'),
    method: text('method', { enum: ['dns', 'http', 'email'] }),
    verifiedAt: tstz('verified_at'),
    /** An e-mail proof's end (a year after it); DNS and HTTP proofs have none and are re-checked instead. */
    expiresAt: tstz('expires_at'),
    /** The last monthly re-check of a DNS or HTTP proof (or the proof itself). */
    checkedAt: tstz('checked_at'),
    /**
     * Local mode only (CRAWL_ALLOW_PRIVATE=true): the port a `<name>.localhost` HTTP proof's file was fetched on, so the
     * monthly re-check fetches it there again. Null for every other proof.
     */
    localPort: integer('local_port'),
    /** The first failed re-check since the last passing one; the proof lapses 14 days later (the owner is mailed first). */
    failingSince: tstz('failing_since'),
    /** The address an e-mail code was last sent to, and the code (its hash), its end and the tries left. */
    emailAddress: text('email_address'),
    emailCodeHash: text('email_code_hash'),
    emailCodeExpiresAt: tstz('email_code_expires_at'),
    emailCodeTries: integer('email_code_tries').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('domain_proofs_account_domain_key').on(t.accountId, t.domain),
    // Claims and the mark look up the verified holders of a domain.
    index('domain_proofs_verified_domain_idx').on(t.domain, t.accountId).where(sql`${t.status} = 'verified'`),
    // The re-check walks verified DNS and HTTP proofs oldest check first.
    index('domain_proofs_recheck_idx')
      .on(t.checkedAt)
      .where(sql`${t.status} = 'verified' AND ${t.method} IN ('dns', 'http')`),
  ],
);

/**
 * A claim of a listing by an account that proved its domain (src/claims/): `claimed` moved the listing, `disputed`
 * did not because its owner holds a proof of the domain too (an open dispute: /admin lists them). The operator's
 * decision settles a dispute as `awarded` (the listing moved: a `claimed` row records the move) or `kept`.
 */
export const siteClaims = pgTable(
  'site_claims',
  {
    id: uuid('id').primaryKey(),
    siteId: uuid('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    fromAccountId: uuid('from_account_id').notNull(),
    toAccountId: uuid('to_account_id').notNull(),
    domain: text('domain').notNull(),
    outcome: text('outcome', { enum: ['claimed', 'disputed', 'awarded', 'kept'] }).notNull(),
    /** The listing's status when it was claimed, for its history. */
    siteStatus: text('site_status').notNull(),
    /** When the operator decided a dispute (null while it is open). */
    settledAt: tstz('settled_at'),
    at: tstz('at').notNull().defaultNow(),
  },
  (t) => [
    index('site_claims_site_idx').on(t.siteId, t.at),
    uniqueIndex('site_claims_open_dispute_key')
      .on(t.siteId, t.toAccountId)
      .where(sql`${t.outcome} = 'disputed' AND ${t.settledAt} IS NULL`),
  ],
);
