import { sql } from 'drizzle-orm';
import { bigint, check, date, index, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { bytea, tstz } from './columns';
import { accounts } from './accounts';
import { sites } from './sites';

// Listing statistics (docs/stats.md): the daily table every reader uses, the local engine's raw counters,
// and each owner's weekly e-mail state. Nothing here identifies a visitor: counts only.

/**
 * One row per tool and UTC day, written only by the roll-up (src/stats/roll-up.ts), which sets every column
 * from the engine's totals for that day: re-running it for a day rewrites the same numbers (idempotent).
 * Impressions are kept by placement (the card as shown: sponsored, featured, or neither).
 */
export const siteStatsDaily = pgTable(
  'site_stats_daily',
  {
    siteId: uuid('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    views: integer('views').notNull().default(0),
    clicks: integer('clicks').notNull().default(0),
    impressionsSponsored: integer('impressions_sponsored').notNull().default(0),
    impressionsFeatured: integer('impressions_featured').notNull().default(0),
    impressionsStandard: integer('impressions_standard').notNull().default(0),
    badgeLoads: integer('badge_loads').notNull().default(0),
    rolledUpAt: tstz('rolled_up_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.siteId, t.day] }),
    /** The operator's directory totals and top tools read days across all tools. */
    index('site_stats_daily_day_idx').on(t.day),
  ],
);

/**
 * The local engine's counters (src/adapters/stats/database.ts): one row per UTC day, tool slug and counter,
 * incremented by one upsert per counted request. Production keeps the same counters in Redis instead; the
 * roll-up reads either through the same seam.
 */
export const statCounters = pgTable(
  'stat_counters',
  {
    day: date('day', { mode: 'string' }).notNull(),
    slug: text('slug').notNull(),
    counter: text('counter').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.slug, t.counter] }), check('stat_counters_positive', sql`${t.n} > 0`)],
);

/**
 * The local engine's visitor marks (src/adapters/stats/database.ts; docs/stats.md "A few per client and day"): per
 * UTC day, a keyed hash of who was counted for what (12 bytes, src/stats/visitor-marks.ts; never an address) and
 * how many events reached it. Only today's are kept: every write and the roll-up delete earlier days. The table
 * is UNLOGGED (drizzle/0031): its rows never reach the write-ahead log, so no backup, replica or point-in-time
 * restore holds them; a crash empties it, and each client may then be counted once more up to its bound.
 */
export const statVisitorMarks = pgTable(
  'stat_visitor_marks',
  {
    day: date('day', { mode: 'string' }).notNull(),
    mark: bytea('mark').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.mark] })],
);

/**
 * The weekly statistics e-mail per account (src/stats/weekly-report.ts): the last week it was sent for (one
 * conditional update claims a week, so a duplicate job delivery sends nothing twice) and the opt-out.
 */
export const statsReportMail = pgTable('stats_report_mail', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  /** Monday (UTC) of the last week reported; null before the first report. */
  lastWeek: date('last_week', { mode: 'string' }),
  optedOutAt: tstz('opted_out_at'),
  /**
   * The capability in the e-mail's opt-out link (/stats/unsubscribe/{token}): random, unique, only ever able to
   * turn this one e-mail off or on again, so it is kept readable (the mail must carry it every week).
   */
  optOutToken: uuid('opt_out_token').notNull().defaultRandom().unique(),
});
