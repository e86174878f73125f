import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';

/**
 * Deletes expired sign-in codes, closed send-budget windows and browser sessions past their expiry (the
 * sweep calls it), in one statement. Nothing of a code outlives it: its tries only ever mattered to that
 * code, and the guesses an address can receive are bounded by the send budgets, whose windows are deleted
 * only once they are over (docs/account.md "Sign-in codes").
 */
export async function purgeExpiredCredentials(deps: Deps): Promise<{ expiredCredentials: number }> {
  const [row] = await queryRows<{ codes: number | string; budgets: number | string; sessions: number | string }>(
    deps.db,
    sql`WITH codes AS (DELETE FROM sign_in_codes WHERE expires_at < now() RETURNING 1),
        budgets AS (DELETE FROM sign_in_send_budgets WHERE window_start < now() - interval '1 day' RETURNING 1),
        sessions AS (DELETE FROM web_sessions WHERE expires_at < now() RETURNING 1)
        SELECT (SELECT count(*) FROM codes) AS codes, (SELECT count(*) FROM budgets) AS budgets,
          (SELECT count(*) FROM sessions) AS sessions`,
  );
  return { expiredCredentials: Number(row?.codes ?? 0) + Number(row?.budgets ?? 0) + Number(row?.sessions ?? 0) };
}
