import { sql } from 'drizzle-orm';
import type { Actor } from '../accounts/actor';
import { queryRows } from '../db/client';
import type { Deps } from '../deps';
import { isoTimestamp } from '../db/sql-format';
import { notFound } from './delete-webhook';
import { isWebhookId } from './webhook-record';

/** One attempt to deliver one event, as GET /api/v1/webhooks/{id}/deliveries shows it. */
export interface DeliveryAttempt {
  event_id: string;
  event_type: string;
  attempt: number;
  /** The receiver's HTTP status; null when nothing was answered (see error). */
  status_code: number | null;
  /** Why the attempt failed, in words that name nothing of our network; null on success. */
  error: string | null;
  succeeded: boolean;
  at: string;
  /** When the next attempt is due; null after a success or the last attempt. */
  next_retry_at: string | null;
}

export const DELIVERIES_LIMIT = 100;

/**
 * The endpoint's most recent attempts, newest first, in one statement: the ownership check is the join, so
 * another account's id reads as unknown.
 */
export async function listDeliveries({
  deps,
  actor,
  input,
}: {
  deps: Deps;
  actor: Actor;
  input: { webhookId: string };
}): Promise<{ data: DeliveryAttempt[] }> {
  if (!isWebhookId(input.webhookId)) throw notFound();
  const rows = await queryRows<DeliveryAttempt & { found: boolean }>(
    deps.db,
    sql`WITH hook AS (SELECT id FROM webhooks WHERE id = ${input.webhookId}::uuid AND account_id = ${actor.accountId}::uuid)
        SELECT true AS found, d.event_id, d.event_type, a.attempt, a.status_code, a.error, a.succeeded,
          ${isoTimestamp(sql`a.at`)} AS at, ${isoTimestamp(sql`a.next_retry_at`)} AS next_retry_at
        FROM hook JOIN webhook_attempts a ON a.webhook_id = hook.id JOIN webhook_deliveries d ON d.id = a.delivery_id
        UNION ALL
        SELECT true, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL FROM hook WHERE NOT EXISTS (SELECT 1 FROM webhook_attempts a WHERE a.webhook_id = hook.id)
        ORDER BY at DESC NULLS LAST, attempt DESC
        LIMIT ${DELIVERIES_LIMIT}`,
  );
  if (rows.length === 0) throw notFound();
  return {
    data: rows
      .filter((r) => r.event_id !== null)
      .map((r) => ({
        event_id: r.event_id,
        event_type: r.event_type,
        attempt: Number(r.attempt),
        status_code: r.status_code === null ? null : Number(r.status_code),
        error: r.error,
        succeeded: r.succeeded === true || (r.succeeded as unknown) === 't',
        at: r.at,
        next_retry_at: r.next_retry_at,
      })),
  };
}
