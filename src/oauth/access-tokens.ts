// Checks the bearer access token of a /mcp request. Not cached: a revoke takes effect on the very next call.
import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import type { Actor } from '../accounts/actor';
import { queryRows } from '../db/client';
import { sha256Hex } from '../crypto';
import { scopesOf, type Scope } from './scopes';
import { looksLike } from './secrets';

export type AccessCheck = { ok: true; actor: Actor; scopes: Scope[]; grantId: string } | { ok: false; reason: string };

/**
 * The account and scopes behind an access token, if it is ours, unexpired, not revoked and issued for
 * `resource` (RFC 8707 audience: a token for any other resource is refused). One statement; the grant's
 * last_used_at is written off the response path, at most once a minute.
 */
export async function verifyAccessToken(deps: Deps, token: string, resource: string): Promise<AccessCheck> {
  if (!looksLike('access', token)) return { ok: false, reason: 'The access token is not one this server issued.' };
  const now = deps.now().toISOString();
  const [row] = await queryRows<{
    scope: string;
    live: boolean;
    grant_id: string;
    account_id: string;
    resource: string;
    email: string;
  }>(
    deps.db,
    sql`SELECT t.scope, t.expires_at > ${now}::timestamptz AS live, g.id AS grant_id, g.account_id, g.resource, a.email
        FROM oauth_tokens t JOIN oauth_grants g ON g.id = t.grant_id JOIN accounts a ON a.id = g.account_id
        WHERE t.token_hash = ${await sha256Hex(token)} AND t.kind = 'access' AND g.revoked_at IS NULL`,
  );
  if (!row) return { ok: false, reason: 'The access token is unknown or was revoked.' };
  if (!row.live) return { ok: false, reason: 'The access token has expired; refresh it.' };
  if (row.resource !== resource)
    return {
      ok: false,
      reason: `The access token was issued for another resource (${row.resource}), not ${resource}.`,
    };
  touchGrant(deps, row.grant_id, now);
  // The credential of an OAuth actor is its grant: keyId names it, as it names the key of an API-key actor.
  return {
    ok: true,
    actor: { keyId: row.grant_id, accountId: row.account_id, email: row.email },
    scopes: scopesOf(row.scope),
    grantId: row.grant_id,
  };
}

function touchGrant(deps: Deps, grantId: string, now: string): void {
  if (!deps.keyCache.shouldTouch(grantId)) return;
  deps.defer(
    queryRows(
      deps.db,
      sql`UPDATE oauth_grants SET last_used_at = ${now}::timestamptz WHERE id = ${grantId} AND revoked_at IS NULL`,
    ),
  );
}
