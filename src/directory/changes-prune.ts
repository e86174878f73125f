import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { LISTING_CHANGE_RETENTION_DAYS } from '../catalog/listing-change-kinds';

/**
 * Deletes the change feed's entries older than the retention (run by the sweep), in the feed's order: everything up
 * to the newest position of an expired entry, and moves the horizon there, so a cursor before it is answered "too
 * old" instead of silently missing what was deleted. Answers how many entries went.
 */
export async function pruneListingChanges(deps: Deps, retentionDays = LISTING_CHANGE_RETENTION_DAYS): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    deps.db,
    sql`WITH cut AS (
        SELECT c.position_xid, c.id FROM listing_changes c
        WHERE c.changed_at < now() - make_interval(days => ${retentionDays}::int)
        ORDER BY c.position_xid DESC, c.id DESC LIMIT 1),
      gone AS (
        DELETE FROM listing_changes c USING cut WHERE (c.position_xid, c.id) <= (cut.position_xid, cut.id) RETURNING 1),
      moved AS (
        UPDATE listing_change_horizon h SET position_xid = cut.position_xid, change_id = cut.id FROM cut
        WHERE (cut.position_xid, cut.id) > (h.position_xid, h.change_id) RETURNING 1)
      SELECT (SELECT count(*) FROM gone)::int AS n, (SELECT count(*) FROM moved) AS moved`,
  );
  return Number(row?.n ?? 0);
}
