import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';

/**
 * Deletes sign-in codes and browser sessions past their expiry (the sweep calls it), in one statement.
 * A code is kept a day past expiry so its lock (5 wrong tries) cannot be reset by waiting for the purge.
 */
export async function purgeExpiredCredentials(deps: Deps): Promise<{ expiredCredentials: number }> {
  const [row] = await queryRows<{ codes: number | string; sessions: number | string }>(
    deps.db,
    sql`WITH codes AS (DELETE FROM sign_in_codes WHERE expires_at < now() - interval '1 day' RETURNING 1),
        sessions AS (DELETE FROM web_sessions WHERE expires_at < now() RETURNING 1)
        SELECT (SELECT count(*) FROM codes) AS codes, (SELECT count(*) FROM sessions) AS sessions`,
  );
  return { expiredCredentials: Number(row?.codes ?? 0) + Number(row?.sessions ?? 0) };
}
