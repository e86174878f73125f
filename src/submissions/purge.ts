import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';

/** How long an unpaid record stays readable by id after its link expired (DECISIONS.md "Pending payment"). */
export const PENDING_RETENTION_DAYS = 30;

/**
 * Deletes pending records whose link expired more than 30 days ago, whatever their state (open, expired or
 * refunded): the sweep calls this. Returns how many were purged. One statement; safe to run concurrently.
 */
export async function purgeExpiredPending(deps: Deps, retentionDays = PENDING_RETENTION_DAYS): Promise<{ purged: number }> {
  const cutoff = new Date(deps.now().getTime() - retentionDays * 24 * 60 * 60 * 1000);
  const rows = await queryRows<{ purged: number }>(
    deps.db,
    sql`WITH gone AS (DELETE FROM pending_submissions WHERE expires_at < ${cutoff.toISOString()}::timestamptz RETURNING 1)
        SELECT count(*)::int AS purged FROM gone`,
  );
  return { purged: Number(rows[0]?.purged ?? 0) };
}
