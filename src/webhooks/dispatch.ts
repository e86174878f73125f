// Hands outbox rows to the queue (docs/webhooks.md "Where events come from"). The trigger writes a delivery in
// the statement that changed a status; whoever runs next (a job step, or a request that can move statuses) claims
// the undispatched rows in one statement and enqueues them. The sweep re-dispatches what a lost message left behind.
import { sql } from 'drizzle-orm';
import { queryRows } from '../db/client';
import type { Deps } from '../deps';
import { webhookRetryPolicy } from './backoff';

const BATCH = 200;

/** Claims every undispatched delivery (SKIP LOCKED: concurrent callers split them) and enqueues each. */
export async function dispatchWebhookEvents(deps: Deps): Promise<number> {
  const claimed = await queryRows<{ id: string }>(
    deps.db,
    sql`UPDATE webhook_deliveries SET dispatched_at = now()
        WHERE id IN (SELECT id FROM webhook_deliveries WHERE dispatched_at IS NULL ORDER BY created_at LIMIT ${BATCH} FOR UPDATE SKIP LOCKED)
        RETURNING id`,
  );
  await enqueueDeliveries(
    deps,
    claimed.map((row) => ({ id: row.id, dedup: `webhook-${row.id}` })),
  );
  return claimed.length;
}

/**
 * Pending deliveries whose next attempt is long overdue lost their queue message (a restart of the local
 * queue, a publish that never arrived): enqueue them again. The lease makes an extra message harmless.
 */
export async function redispatchStalledDeliveries(deps: Deps, overdueForMs = 15 * 60_000): Promise<number> {
  const stalled = await queryRows<{ id: string; attempts: number }>(
    deps.db,
    sql`SELECT id, attempts FROM webhook_deliveries
        WHERE state = 'pending' AND dispatched_at IS NOT NULL
          AND next_attempt_at <= now() - ${overdueForMs}::int * interval '1 millisecond'
          AND (leased_until IS NULL OR leased_until < now())
        ORDER BY next_attempt_at LIMIT ${BATCH}`,
  );
  await enqueueDeliveries(
    deps,
    stalled.map((row) => ({ id: row.id, dedup: `webhook-${row.id}-${Number(row.attempts)}-sweep` })),
  );
  return stalled.length;
}

export async function enqueueDeliveries(deps: Deps, deliveries: Array<{ id: string; dedup: string }>): Promise<void> {
  const retry = webhookRetryPolicy(deps);
  for (const delivery of deliveries) {
    try {
      await deps.queue.enqueue('webhook', { delivery_id: delivery.id }, { deduplicationId: delivery.dedup, retry });
    } catch (error) {
      // Unclaim it: the next dispatch (or the sweep) tries again.
      deps.log.warn('webhook dispatch failed', { delivery_id: delivery.id, err: String(error) });
      await queryRows(deps.db, sql`UPDATE webhook_deliveries SET dispatched_at = NULL WHERE id = ${delivery.id}::uuid`);
    }
  }
}

/** Delivery logs are kept 30 days (docs/webhooks.md); attempts go with their delivery (cascade). */
export async function purgeOldDeliveries(deps: Deps): Promise<number> {
  const purged = await queryRows<{ id: string }>(
    deps.db,
    sql`DELETE FROM webhook_deliveries WHERE id IN (
          SELECT id FROM webhook_deliveries WHERE created_at < now() - interval '30 days' AND state <> 'pending' LIMIT 1000
        ) RETURNING id`,
  );
  return purged.length;
}
