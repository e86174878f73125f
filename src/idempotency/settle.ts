import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { queryRows } from '../db/client';
import type { StoredOutcome } from './outcome';

interface Claim {
  accountId: string;
  key: string;
  token: string;
}

/** Stores the outcome a repeat will replay, in one statement, only while our claim still holds the key. */
export async function storeIdempotentOutcome(db: Db, claim: Claim, outcome: StoredOutcome): Promise<boolean> {
  const rows = await queryRows<{ key: string }>(
    db,
    sql`UPDATE idempotency_keys SET state = 'completed', outcome = ${JSON.stringify(outcome)}::jsonb, locked_until = NULL
        WHERE account_id = ${claim.accountId}::uuid AND key = ${claim.key} AND claim_token = ${claim.token}
          AND state = 'in_progress'
        RETURNING key`,
  );
  return rows.length === 1;
}

/** Frees the key after an outcome that must not be replayed (a 5xx, a 400, a 429), so a retry runs again. */
export async function releaseIdempotencyKey(db: Db, claim: Claim): Promise<void> {
  await queryRows(
    db,
    sql`DELETE FROM idempotency_keys
        WHERE account_id = ${claim.accountId}::uuid AND key = ${claim.key} AND claim_token = ${claim.token}
          AND state = 'in_progress'
        RETURNING key`,
  );
}

/** Deletes keys past the retention window (the sweep calls it; the claim also ignores them by age). */
export async function purgeExpiredIdempotencyKeys(db: Db, retentionHours: number): Promise<number> {
  const rows = await queryRows<{ n: number | string }>(
    db,
    sql`WITH gone AS (DELETE FROM idempotency_keys WHERE created_at <= now() - ${`${retentionHours} hours`}::interval RETURNING 1)
        SELECT count(*) AS n FROM gone`,
  );
  return Number(rows[0]?.n ?? 0);
}
