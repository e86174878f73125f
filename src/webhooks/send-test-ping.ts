import { sql } from 'drizzle-orm';
import type { Actor } from '../accounts/actor';
import { queryRows } from '../db/client';
import type { Deps } from '../deps';
import { isoTimestamp } from '../db/sql-format';
import { notFound } from './delete-webhook';
import { enqueueDeliveries } from './dispatch';
import { isWebhookId } from './webhook-record';

export interface QueuedPing {
  webhook_id: string;
  event_id: string;
  created: string;
}

/**
 * Queues a `ping` to one of the account's endpoints: signed and retried like any event, off the request path,
 * and listed under its deliveries. The insert is the ownership check (nothing is written for another's id).
 */
export async function sendTestPing({
  deps,
  actor,
  input,
}: {
  deps: Deps;
  actor: Actor;
  input: { webhookId: string };
}): Promise<QueuedPing> {
  if (!isWebhookId(input.webhookId)) throw notFound();
  const eventId = `evt_${crypto.randomUUID().replaceAll('-', '')}`;
  const [row] = await queryRows<{ id: string; created: string }>(
    deps.db,
    sql`INSERT INTO webhook_deliveries (webhook_id, event_id, event_type, data, dispatched_at)
        SELECT w.id, ${eventId}::text, 'ping', jsonb_build_object('webhook_id', w.id, 'url', w.url), now()
        FROM webhooks w WHERE w.id = ${input.webhookId}::uuid AND w.account_id = ${actor.accountId}::uuid
        RETURNING id, ${isoTimestamp(sql`created_at`)} AS created`,
  );
  if (!row) throw notFound();
  await enqueueDeliveries(deps, [{ id: row.id, dedup: `webhook-${row.id}` }]);
  return { webhook_id: input.webhookId, event_id: eventId, created: row.created };
}
