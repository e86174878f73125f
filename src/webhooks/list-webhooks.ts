import { sql } from 'drizzle-orm';
import type { Actor } from '../accounts/actor';
import { queryRows } from '../db/client';
import type { Deps } from '../deps';
import { toWebhookRecord, webhookRecordColumns, type WebhookRecord } from './webhook-record';

/** The account's endpoints, oldest first; never their secrets. */
export async function listWebhooks({ deps, actor }: { deps: Deps; actor: Actor }): Promise<{ data: WebhookRecord[] }> {
  const rows = await queryRows<{ webhook_id: string; url: string; events: unknown; created_at: string }>(
    deps.db,
    sql`SELECT ${webhookRecordColumns} FROM webhooks w WHERE w.account_id = ${actor.accountId}::uuid ORDER BY w.created_at, w.slot`,
  );
  return { data: rows.map(toWebhookRecord) };
}
