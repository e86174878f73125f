import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';

/** How long an unpaid record stays readable by id after its link expired (DECISIONS.md "Pending payment"). */
export const PENDING_RETENTION_DAYS = 30;

/**
 * Deletes pending records whose link expired more than 30 days ago, whatever their state (open, expired or
 * refunded): the sweep calls this. Returns how many were purged. One statement; safe to run concurrently.
 * The same statement forgets our record of Checkout Sessions made that long ago that never started a
 * subscription: no payment can arrive for them any more (a link lives 24 hours, a delayed payment method
 * settles within two weeks), while a subscription's record stays as long as its events may come.
 */
export async function purgeExpiredPending(
  deps: Deps,
  retentionDays = PENDING_RETENTION_DAYS,
): Promise<{ purged: number }> {
  const cutoff = new Date(deps.now().getTime() - retentionDays * 24 * 60 * 60 * 1000);
  const rows = await queryRows<{ purged: number }>(
    deps.db,
    sql`WITH gone AS (DELETE FROM pending_submissions WHERE expires_at < ${cutoff.toISOString()}::timestamptz RETURNING 1),
        sessions AS (
          DELETE FROM checkout_sessions WHERE created_at < ${cutoff.toISOString()}::timestamptz AND subscription_id IS NULL
        )
        SELECT count(*)::int AS purged FROM gone`,
  );
  return { purged: Number(rows[0]?.purged ?? 0) };
}
