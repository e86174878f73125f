// The `webhook` job step: one attempt at one delivery (docs/webhooks.md "Delivery"). QStash in production
// and the local queue alike run it through runJob; throwing asks the queue for the next retry on the
// schedule of ./backoff.ts.
import { sql } from 'drizzle-orm';
import { queryRows } from '../db/client';
import { isoTimestamp } from '../db/sql-format';
import type { Deps } from '../deps';
import { ServiceError } from '../errors';
import { WEBHOOK_RETRIES, webhookRetryPolicy } from './backoff';
import { eventBody } from './event-body';
import { postEvent, WEBHOOK_TIMEOUT_MS } from './send-event';
import { signatureHeader } from './signature';

export type WebhookJobResult =
  | { outcome: 'delivered' | 'failed' | 'retrying'; delivery_id: string; attempt: number; status_code: number | null }
  | { outcome: 'skipped'; reason: string };

const MAX_ATTEMPTS = WEBHOOK_RETRIES + 1;

/**
 * Leases the delivery (one conditional statement: still pending, not already in flight, attempts left), sends
 * it, and records the attempt together with the delivery's new state in one statement. A duplicate or late job
 * delivery finds nothing to lease and does nothing; a deleted endpoint took its deliveries with it.
 */
export async function deliverWebhook(deps: Deps, deliveryId: string): Promise<WebhookJobResult> {
  const leaseSeconds = Math.ceil((deps.webhooks.timeoutMs ?? WEBHOOK_TIMEOUT_MS) / 1000) * 3;
  const [lease] = await queryRows<{
    event_id: string;
    event_type: string;
    created: string;
    data: unknown;
    attempts: number;
    url: string;
    secret: string;
  }>(
    deps.db,
    sql`UPDATE webhook_deliveries d SET attempts = d.attempts + 1, leased_until = now() + ${leaseSeconds}::int * interval '1 second'
        FROM webhooks w
        WHERE d.id = ${deliveryId}::uuid AND w.id = d.webhook_id AND d.state = 'pending' AND d.attempts < ${MAX_ATTEMPTS}::int
          AND (d.leased_until IS NULL OR d.leased_until < now())
        RETURNING d.event_id, d.event_type, ${isoTimestamp(sql`d.created_at`)} AS created, d.data, d.attempts, w.url, w.secret`,
  );
  if (!lease) return { outcome: 'skipped', reason: 'delivery done, in flight or deleted' };
  const attempt = Number(lease.attempts);
  const body = eventBody(lease);
  const outcome = await postEvent(deps, lease.url, body, {
    'tooldir-signature': signatureHeader(lease.secret, Math.floor(Date.now() / 1000), body),
    'tooldir-event-id': lease.event_id,
  });

  const last = attempt >= MAX_ATTEMPTS;
  const retryInMs = outcome.succeeded || last ? null : Math.round(webhookRetryPolicy(deps).delayMs(attempt - 1));
  const state = outcome.succeeded ? 'succeeded' : last ? 'failed' : 'pending';
  await queryRows(
    deps.db,
    sql`WITH d AS (
          UPDATE webhook_deliveries SET state = ${state}::text, leased_until = NULL,
            next_attempt_at = now() + ${retryInMs ?? 0}::int * interval '1 millisecond'
          WHERE id = ${deliveryId}::uuid RETURNING id, webhook_id
        )
        INSERT INTO webhook_attempts (delivery_id, webhook_id, attempt, status_code, error, succeeded, duration_ms, next_retry_at)
        SELECT d.id, d.webhook_id, ${attempt}::int, ${outcome.statusCode}::int, ${outcome.error}::text, ${outcome.succeeded}::boolean,
          ${outcome.durationMs}::int, CASE WHEN ${retryInMs}::int IS NULL THEN NULL ELSE now() + ${retryInMs}::int * interval '1 millisecond' END
        FROM d
        ON CONFLICT (delivery_id, attempt) DO NOTHING`,
  );
  const result = { delivery_id: deliveryId, attempt, status_code: outcome.statusCode };
  if (outcome.succeeded) return { outcome: 'delivered', ...result };
  if (last) {
    deps.log.warn('webhook delivery failed for good', { delivery_id: deliveryId, attempts: attempt });
    return { outcome: 'failed', ...result };
  }
  // Not an error of ours: the queue's retry is how the next attempt is scheduled.
  throw new ServiceError(
    'service_unavailable',
    `Webhook attempt ${attempt} was not answered with a 2xx; the queue retries it.`,
  );
}

/** QStash's failure callback: retries are spent, whatever our counter says. */
export async function markDeliveryFailed(deps: Deps, deliveryId: string): Promise<void> {
  await queryRows(
    deps.db,
    sql`UPDATE webhook_deliveries SET state = 'failed', leased_until = NULL WHERE id = ${deliveryId}::uuid AND state = 'pending'`,
  );
}
