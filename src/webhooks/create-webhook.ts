import { sql } from 'drizzle-orm';
import type { Actor } from '../accounts/actor';
import { queryRows } from '../db/client';
import type { Deps } from '../deps';
import { ServiceError } from '../errors';
import { generateWebhookSecret } from './signature';
import { checkWebhookTarget } from './target';
import {
  MAX_WEBHOOKS_PER_ACCOUNT,
  toWebhookRecord,
  webhookEventTypes,
  webhookRecordColumns,
  type WebhookEventType,
  type WebhookRecord,
} from './webhook-record';

export interface CreateWebhookInput {
  url: string;
  events?: WebhookEventType[];
}

/**
 * Registers an endpoint (docs/webhooks.md). The cap holds under any concurrency because the insert takes the
 * lowest free slot 1..5 in ONE statement and (account, slot) is unique with slot CHECKed to 1..5: a create that
 * lost a race for a slot inserts nothing and tries the next free one; when none is free, 409.
 */
export async function createWebhook({
  deps,
  actor,
  input,
}: {
  deps: Deps;
  actor: Actor;
  input: CreateWebhookInput;
}): Promise<WebhookRecord & { secret: string }> {
  const target = await checkWebhookTarget(deps, input.url.trim());
  if (!target.ok) throw new ServiceError('invalid_request', target.message, { field: 'url' });
  const events = [...new Set(input.events ?? webhookEventTypes)].join(',');
  const secret = generateWebhookSecret();
  const id = crypto.randomUUID();
  for (let tries = 0; tries < MAX_WEBHOOKS_PER_ACCOUNT * 2; tries++) {
    const [row] = await queryRows<{
      webhook_id: string;
      url: string;
      events: unknown;
      created_at: string;
      full: boolean;
    }>(
      deps.db,
      sql`WITH taken AS (SELECT slot FROM webhooks WHERE account_id = ${actor.accountId}::uuid),
          inserted AS (
            INSERT INTO webhooks (id, account_id, slot, url, events, secret)
            SELECT ${id}::uuid, ${actor.accountId}::uuid, free.slot, ${target.url.href}::text, string_to_array(${events}::text, ','), ${secret}::text
            FROM generate_series(1, ${MAX_WEBHOOKS_PER_ACCOUNT}::int) AS free(slot)
            WHERE free.slot NOT IN (SELECT slot FROM taken)
            ORDER BY free.slot LIMIT 1
            ON CONFLICT (account_id, slot) DO NOTHING
            RETURNING *
          )
          SELECT ${webhookRecordColumns}, false AS full FROM inserted w
          UNION ALL
          SELECT NULL, NULL, NULL, NULL, true WHERE NOT EXISTS (SELECT 1 FROM inserted)
            AND (SELECT count(*) FROM taken) >= ${MAX_WEBHOOKS_PER_ACCOUNT}::int`,
    );
    if (row && !row.full) return { ...toWebhookRecord(row), secret };
    if (row?.full) break;
    // Nothing inserted yet not full: a concurrent create took the same slot first. Try the next free one.
  }
  throw new ServiceError(
    'too_many_webhooks',
    `An account can register at most ${MAX_WEBHOOKS_PER_ACCOUNT} webhooks; delete one first.`,
  );
}
