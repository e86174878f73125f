import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { randomToken, sha256Hex } from '../crypto';

/** Account-area sessions: the cookie carries a random token, web_sessions only its hash. */
export const SESSION_TTL_DAYS = 30;

export interface WebSession {
  accountId: string;
  email: string;
  /** Synchronizer token every form of this session must echo. */
  csrfToken: string;
  expiresAt: Date;
}

export interface CreatedWebSession extends WebSession {
  /** The cookie value; never stored. */
  token: string;
}

const TOKEN = /^[0-9A-Za-z]{43}$/;

/** Starts a session of kind 'account' (≈256-bit token, its own CSRF token). */
export async function createWebSession(
  deps: Deps,
  account: { account_id: string; email: string },
): Promise<CreatedWebSession> {
  const token = randomToken(43);
  const csrfToken = randomToken(32);
  const expiresAt = new Date(deps.now().getTime() + SESSION_TTL_DAYS * 86_400_000);
  await queryRows(
    deps.db,
    sql`INSERT INTO web_sessions (token_hash, kind, account_id, csrf_token, expires_at)
        VALUES (${await sha256Hex(token)}, 'account', ${account.account_id}, ${csrfToken}, ${expiresAt.toISOString()}::timestamptz)`,
  );
  return { token, accountId: account.account_id, email: account.email, csrfToken, expiresAt };
}

/** The live account session behind a cookie value, or undefined (unknown, expired or malformed). */
export async function findWebSession(deps: Deps, token: string | undefined): Promise<WebSession | undefined> {
  if (!token || !TOKEN.test(token)) return undefined;
  const [row] = await queryRows<{ account_id: string; email: string; csrf_token: string; expires_at: string }>(
    deps.db,
    sql`SELECT s.account_id, a.email, s.csrf_token,
          to_char(s.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS expires_at
        FROM web_sessions s JOIN accounts a ON a.id = s.account_id
        WHERE s.token_hash = ${await sha256Hex(token)} AND s.kind = 'account'
          AND s.expires_at > ${deps.now().toISOString()}::timestamptz`,
  );
  if (!row) return undefined;
  return {
    accountId: row.account_id,
    email: row.email,
    csrfToken: row.csrf_token,
    expiresAt: new Date(row.expires_at),
  };
}

/** Ends a session (sign-out) and sweeps this account's expired ones in the same statement. */
export async function deleteWebSession(deps: Deps, token: string | undefined): Promise<void> {
  if (!token || !TOKEN.test(token)) return;
  await queryRows(
    deps.db,
    sql`DELETE FROM web_sessions WHERE kind = 'account' AND (token_hash = ${await sha256Hex(token)}
          OR (expires_at <= ${deps.now().toISOString()}::timestamptz
              AND account_id = (SELECT account_id FROM web_sessions WHERE token_hash = ${await sha256Hex(token)})))`,
  );
}
