import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { queryRows } from '../db/client';
import { IDEMPOTENCY } from './key';
import type { StoredOutcome } from './outcome';

export type ClaimResult =
  /** The key is ours: run the verb, then store its outcome (or release the key) under `token`. */
  | { kind: 'claimed'; token: string }
  | { kind: 'replay'; outcome: StoredOutcome }
  | { kind: 'in_progress' }
  | { kind: 'mismatch' };

interface Row {
  claimed: string | null;
  request_hash: string | null;
  state: string | null;
  outcome: string | null;
}

/**
 * Claims `key` for one request in ONE statement (Neon's HTTP driver has no interactive transactions): insert
 * an in-progress row, or take over a row that is older than the retention window (any body) or whose claim
 * expired without an outcome (a crashed request; same body only). The primary key serialises concurrent
 * first uses: exactly one INSERT wins, the others see the winner's row. The outer SELECT reads the row that
 * was there before (the statement's snapshot); when a concurrent claim committed after that snapshot it is
 * invisible, which can only mean "someone else just claimed it": in progress.
 */
export async function claimIdempotencyKey(
  db: Db,
  q: { accountId: string; key: string; requestHash: string },
): Promise<ClaimResult> {
  const token = crypto.randomUUID();
  const retention = `${IDEMPOTENCY.retentionHours} hours`;
  const lock = `${IDEMPOTENCY.lockSeconds} seconds`;
  const [row] = await queryRows<Row>(
    db,
    sql`WITH claim AS (
          INSERT INTO idempotency_keys (account_id, key, request_hash, state, claim_token, locked_until)
          VALUES (${q.accountId}::uuid, ${q.key}, ${q.requestHash}, 'in_progress', ${token}, now() + ${lock}::interval)
          ON CONFLICT (account_id, key) DO UPDATE SET
            request_hash = EXCLUDED.request_hash, state = 'in_progress', claim_token = EXCLUDED.claim_token,
            locked_until = EXCLUDED.locked_until, outcome = NULL, created_at = now()
          WHERE idempotency_keys.created_at <= now() - ${retention}::interval
             OR (idempotency_keys.state = 'in_progress' AND idempotency_keys.locked_until <= now()
                 AND idempotency_keys.request_hash = EXCLUDED.request_hash)
          RETURNING claim_token
        )
        SELECT (SELECT claim_token FROM claim) AS claimed, k.request_hash, k.state, k.outcome::text AS outcome
        FROM (SELECT 1) AS one
        LEFT JOIN idempotency_keys k ON k.account_id = ${q.accountId}::uuid AND k.key = ${q.key}`,
  );
  if (row?.claimed === token) return { kind: 'claimed', token };
  if (!row?.request_hash) return { kind: 'in_progress' };
  if (row.request_hash !== q.requestHash) return { kind: 'mismatch' };
  if (row.state === 'completed' && row.outcome)
    return { kind: 'replay', outcome: JSON.parse(row.outcome) as StoredOutcome };
  return { kind: 'in_progress' };
}
