// What the sweep deletes of OAuth state once it can no longer matter (docs/mcp-and-search.md "Codes and tokens").
import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';

/**
 * One statement: authorization codes past their 10 minutes, access and refresh tokens past their expiry (a
 * rotated refresh token is kept until then, so its reuse still revokes the family), and registered clients
 * that never got a code within a day (registration is open; abandoned ones pile up otherwise). Grants stay,
 * revoked ones included: they are the record the person and the operator see.
 */
export async function purgeExpiredOAuth(deps: Deps): Promise<number> {
  const [row] = await queryRows<{ n: number | string }>(
    deps.db,
    sql`WITH codes AS (DELETE FROM oauth_codes WHERE expires_at < now() RETURNING 1),
        tokens AS (DELETE FROM oauth_tokens WHERE expires_at < now() RETURNING 1),
        clients AS (
          DELETE FROM oauth_clients c WHERE c.kind = 'registered' AND c.created_at < now() - interval '1 day'
            AND NOT EXISTS (SELECT 1 FROM oauth_grants g WHERE g.client_id = c.id)
            AND NOT EXISTS (SELECT 1 FROM oauth_codes o WHERE o.client_id = c.id)
          RETURNING 1
        )
        SELECT (SELECT count(*) FROM codes) + (SELECT count(*) FROM tokens) + (SELECT count(*) FROM clients) AS n`,
  );
  return Number(row?.n ?? 0);
}
