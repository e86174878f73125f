import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { healthNotices, healthReasonKinds, healthStates } from '../../catalog/health-states';
import { tstz } from './columns';
import { sites } from './sites';

// The re-check of live tools (docs/health.md). Its triggers, the slot functions and the rewrite of the listing
// functions are SQL only: drizzle/0038_site_health.sql.

/**
 * What the last re-check of a site found, one row per site that has ever been live (a trigger on sites adds it when
 * the site goes live). `next_check_at` is the due key: the tool's fixed second of the next UTC day, NULL once not live.
 */
export const siteHealth = pgTable(
  'site_health',
  {
    siteId: uuid('site_id')
      .primaryKey()
      .references(() => sites.id, { onDelete: 'cascade' }),
    state: text('state', { enum: healthStates }).notNull().default('unchecked'),
    /** Why the state is not ok (its words: src/catalog/health-states.ts); null when ok. */
    reasonKind: text('reason_kind', { enum: healthReasonKinds }).default('not_checked_yet'),
    /** The status the site answered, for the reasons that name one. */
    httpStatus: integer('http_status'),
    /** For `moved`: the registrable domain the site now leads to. */
    movedTo: text('moved_to'),
    lastCheckedAt: tstz('last_checked_at'),
    lastOkAt: tstz('last_ok_at'),
    /** The first check of the current run of failing checks; null when the last check passed. */
    failingSince: tstz('failing_since'),
    nextCheckAt: tstz('next_check_at'),
    /** The validators of the last full answer, sent back as If-None-Match / If-Modified-Since. */
    etag: text('etag'),
    lastModified: text('last_modified'),
    /** What the page showed at the last full answer, compared with the listing ("refresh from the site"). */
    seenTitle: text('seen_title'),
    seenDescription: text('seen_description'),
    seenImage: text('seen_image'),
    /** The state the owner was last told of (mail and webhook); a change of it writes the webhook outbox rows. */
    notifiedState: text('notified_state', { enum: healthNotices }).notNull().default('ok'),
    /** The UTC day the owner was last told anything: at most one notice a day, however the site flaps. */
    notifiedOn: date('notified_on', { mode: 'string' }),
    hiddenAt: tstz('hidden_at'),
    /** The UTC day the listing was last hidden: at most one hide a day, however the site flaps. */
    hiddenOn: date('hidden_on', { mode: 'string' }),
  },
  (t) => [
    index('site_health_due_idx').on(t.nextCheckAt).where(sql`${t.nextCheckAt} IS NOT NULL`),
    index('site_health_attention_idx').on(t.failingSince).where(sql`${t.state} IN ('failing', 'moved')`),
    check('site_health_state_check', sql`${t.state} IN ('ok', 'failing', 'moved', 'unchecked')`),
    check('site_health_notified_state_check', sql`${t.notifiedState} IN ('ok', 'failing', 'hidden', 'moved')`),
  ],
);
