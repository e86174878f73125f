import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  index,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { listingChangeKinds } from '../../catalog/listing-change-kinds';
import { tstz } from './columns';

// The change feed of the public directory (docs/change-feed.md): one row per listing that appeared, changed or left,
// written by triggers (drizzle/*_listing_changes.sql) so no code path can forget one, read by GET /api/v1/changes.

/** A 64-bit transaction id (PostgreSQL's xid8): never wraps around, compares in the order transactions began. */
const xid8 = customType<{ data: string }>({ dataType: () => 'xid8' });

export const listingChanges = pgTable(
  'listing_changes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /**
     * The feed's order is (position_xid, id). position_xid is the writing transaction's id, or the position of the
     * site's previous change when that is later (so one site's changes never swap places). A reader serves only rows
     * whose position_xid is below the oldest transaction still running: no row can ever appear before them.
     */
    positionXid: xid8('position_xid').notNull(),
    /** No foreign key: the row outlives a deleted site, whose `left` it records. */
    siteId: uuid('site_id').notNull(),
    kind: text('kind', { enum: listingChangeKinds }).notNull(),
    /** The listing's slug when it changed (for `left`: the slug it had while listed). */
    slug: text('slug'),
    /** The slug before this change, when the change renamed the listing. */
    previousSlug: text('previous_slug'),
    changedAt: tstz('changed_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('listing_changes_position_idx').on(t.positionXid, t.id),
    index('listing_changes_site_idx').on(t.siteId, t.positionXid),
    index('listing_changes_changed_at_idx').on(t.changedAt),
    check('listing_changes_kind_check', sql`${t.kind} IN ('appeared', 'changed', 'left')`),
  ],
);

/**
 * One row: the position of the newest change the retention sweep deleted ('0', 0 before the first). A cursor
 * before it is too old: changes after it were deleted, so the mirror must resync.
 */
export const listingChangeHorizon = pgTable(
  'listing_change_horizon',
  {
    id: boolean('id').primaryKey().default(true),
    positionXid: xid8('position_xid').notNull().default(sql`'0'::xid8`),
    changeId: bigint('change_id', { mode: 'number' }).notNull().default(0),
  },
  (t) => [check('listing_change_horizon_one_row', sql`${t.id}`)],
);
