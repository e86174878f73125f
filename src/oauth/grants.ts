// Connected apps: the grants of an account, listed for the person (/account) and the operator, and revoked by
// either, or by the client itself (RFC 7009). Revoking a grant ends all its tokens at once (nothing is cached).
import { sql } from 'drizzle-orm';
import { UnauthorizedClientError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { sha256Hex } from '../crypto';
import { scopesOf, type Scope } from './scopes';
import { looksLike } from './secrets';
import type { OAuthClientKind } from '../catalog/oauth-client-kinds';

export interface GrantView {
  grant_id: string;
  client_id: string;
  client_kind: OAuthClientKind;
  /** What the client calls itself: unverified. */
  client_name: string | null;
  redirect_uri: string;
  scopes: Scope[];
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

const iso = (column: string) => sql.raw(`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

/** The account's grants, newest first; only the active ones unless `includeRevoked`. */
export async function listGrants(
  deps: Deps,
  accountId: string,
  options: { includeRevoked?: boolean } = {},
): Promise<GrantView[]> {
  const rows = await queryRows<Omit<GrantView, 'scopes'> & { scope: string }>(
    deps.db,
    sql`SELECT g.id AS grant_id, g.client_id, c.kind AS client_kind, c.name AS client_name, g.redirect_uri, g.scope,
          ${iso('g.created_at')} AS created_at, ${iso('g.last_used_at')} AS last_used_at, ${iso('g.revoked_at')} AS revoked_at
        FROM oauth_grants g JOIN oauth_clients c ON c.id = g.client_id
        WHERE g.account_id = ${accountId} ${options.includeRevoked ? sql`` : sql`AND g.revoked_at IS NULL`}
        ORDER BY g.created_at DESC, g.id DESC
        LIMIT 200`,
  );
  return rows.map(({ scope, ...row }) => ({ ...row, scopes: scopesOf(scope) }));
}

/** Revokes one grant of the account (idempotent). False when the account has no such grant. */
export async function revokeGrant(deps: Deps, accountId: string, grantId: string): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(
    deps.db,
    sql`UPDATE oauth_grants SET revoked_at = coalesce(revoked_at, ${deps.now().toISOString()}::timestamptz)
        WHERE id = ${grantId} AND account_id = ${accountId} RETURNING id`,
  );
  return rows.length > 0;
}

/**
 * RFC 7009 for a public client: an access token ends now; a refresh token ends its whole grant (§2.1: the
 * access tokens of the same grant go too). A token we do not know is answered as success (§2.2); a token of
 * another client is refused and left alone. One statement.
 */
export async function revokeToken(deps: Deps, input: { clientId: string; token: string | undefined }): Promise<void> {
  const { token } = input;
  if (!looksLike('access', token) && !looksLike('refresh', token)) return;
  const now = deps.now().toISOString();
  const [row] = await queryRows<{ client_id: string }>(
    deps.db,
    sql`WITH tok AS (
          SELECT t.token_hash, t.kind, t.grant_id, g.client_id FROM oauth_tokens t JOIN oauth_grants g ON g.id = t.grant_id
          WHERE t.token_hash = ${await sha256Hex(token)}
        ), ended_access AS (
          UPDATE oauth_tokens SET expires_at = least(expires_at, ${now}::timestamptz)
          WHERE token_hash IN (SELECT token_hash FROM tok WHERE kind = 'access' AND client_id = ${input.clientId}) RETURNING 1
        ), ended_grant AS (
          UPDATE oauth_grants SET revoked_at = coalesce(revoked_at, ${now}::timestamptz)
          WHERE id IN (SELECT grant_id FROM tok WHERE kind = 'refresh' AND client_id = ${input.clientId}) RETURNING 1
        )
        SELECT client_id, (SELECT count(*) FROM ended_access) + (SELECT count(*) FROM ended_grant) AS ended FROM tok`,
  );
  if (row && row.client_id !== input.clientId)
    throw new UnauthorizedClientError('This token was issued to another client.');
}
