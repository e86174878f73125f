import { sql } from 'drizzle-orm';
import type { Actor } from '../accounts/actor';
import { queryRows } from '../db/client';
import type { Deps } from '../deps';
import { ServiceError } from '../errors';
import { isWebhookId } from './webhook-record';

/**
 * Deletes one of the account's endpoints with its deliveries and attempts (cascade). An attempt already
 * queued finds no delivery and sends nothing (src/webhooks/deliver-webhook.ts).
 */
export async function deleteWebhook({
  deps,
  actor,
  input,
}: {
  deps: Deps;
  actor: Actor;
  input: { webhookId: string };
}): Promise<void> {
  const rows = isWebhookId(input.webhookId)
    ? await queryRows(
        deps.db,
        sql`DELETE FROM webhooks WHERE id = ${input.webhookId}::uuid AND account_id = ${actor.accountId}::uuid RETURNING id`,
      )
    : [];
  if (rows.length === 0) throw notFound();
}

export const notFound = () => new ServiceError('not_found', 'No webhook with this id on your account.');
