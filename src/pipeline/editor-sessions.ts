import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { randomToken, sha256Hex } from '../crypto';

/** Editor sessions (web_sessions kind 'editor'): the cookie carries a random token, the table only its hash. */
export const EDITOR_SESSION_TTL_HOURS = 12;

export interface EditorSession {
  csrfToken: string;
}

const TOKEN = /^[0-9A-Za-z]{43}$/;

/** Starts an editor session (≈256-bit token, its own CSRF token); also clears expired editor sessions. */
export async function createEditorSession(
  deps: Deps,
): Promise<{ token: string; csrfToken: string; maxAgeSeconds: number }> {
  const token = randomToken(43);
  const csrfToken = randomToken(32);
  const now = deps.now();
  const expiresAt = new Date(now.getTime() + EDITOR_SESSION_TTL_HOURS * 3_600_000);
  await queryRows(
    deps.db,
    sql`WITH gone AS (DELETE FROM web_sessions WHERE kind = 'editor' AND expires_at <= ${now.toISOString()}::timestamptz)
        INSERT INTO web_sessions (token_hash, kind, csrf_token, expires_at)
        VALUES (${await sha256Hex(token)}, 'editor', ${csrfToken}, ${expiresAt.toISOString()}::timestamptz)`,
  );
  return { token, csrfToken, maxAgeSeconds: EDITOR_SESSION_TTL_HOURS * 3600 };
}

/** The live editor session behind a cookie value, or undefined (unknown, expired, malformed). */
export async function findEditorSession(deps: Deps, token: string | undefined): Promise<EditorSession | undefined> {
  if (!token || !TOKEN.test(token)) return undefined;
  const [row] = await queryRows<{ csrf_token: string }>(
    deps.db,
    sql`SELECT csrf_token FROM web_sessions
        WHERE token_hash = ${await sha256Hex(token)} AND kind = 'editor' AND expires_at > ${deps.now().toISOString()}::timestamptz`,
  );
  return row ? { csrfToken: row.csrf_token } : undefined;
}

/** Signs an editor out. */
export async function deleteEditorSession(deps: Deps, token: string | undefined): Promise<void> {
  if (!token || !TOKEN.test(token)) return;
  await queryRows(
    deps.db,
    sql`DELETE FROM web_sessions WHERE kind = 'editor' AND token_hash = ${await sha256Hex(token)}`,
  );
}

/** A site waiting for (or open to) an editor's decision, with what the crawl and the checks found. */
export interface ReviewQueueItem {
  site_id: string;
  name: string;
  url: string;
  status: 'pending_review' | 'live';
  plan: string;
  submitted_at: string;
  metadata: Record<string, string | null> | null;
  review_checks: { passed?: boolean; checks?: Array<{ name: string; passed: boolean; detail: string }> } | null;
  live_url: string | null;
}

/** The editor's queue: pending_review oldest first, then the newest live tools (for takedowns). */
export async function listReviewQueue(deps: Deps): Promise<ReviewQueueItem[]> {
  const rows = await queryRows<ReviewQueueItem>(
    deps.db,
    sql`SELECT * FROM ((SELECT id AS site_id, name, url, status, plan, to_char(submitted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS submitted_at,
            metadata, review_checks, live_url, 0 AS grp, status_changed_at AS t
         FROM sites WHERE status = 'pending_review' ORDER BY status_changed_at LIMIT 100)
        UNION ALL
        (SELECT id, name, url, status, plan, to_char(submitted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI'),
            metadata, review_checks, live_url, 1, published_at
         FROM sites WHERE status = 'live' ORDER BY published_at DESC LIMIT 20)) q
        ORDER BY grp, CASE WHEN grp = 0 THEN t END, t DESC`,
  );
  const parse = <T>(v: unknown) => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));
  return rows.map((r) => ({ ...r, metadata: parse(r.metadata), review_checks: parse(r.review_checks) }));
}
