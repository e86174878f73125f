// grant_type=refresh_token (OAuth 2.1 §4.3): rotation on every use; a reused refresh token ends its family.
import { sql } from 'drizzle-orm';
import {
  InvalidGrantError,
  InvalidScopeError,
  InvalidTargetError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { sha256Hex } from '../crypto';
import { formatScope, parseScope, scopesOf } from './scopes';
import { looksLike } from './secrets';
import { newTokenPair, tokenResponse, type TokenResponse } from './token-response';

export interface RefreshInput {
  clientId: string;
  refreshToken: string | undefined;
  /** Optional narrowing (RFC 6749 §6): the new access token gets only these; the refresh token keeps its scope. */
  scope: string | undefined;
  resource: string | undefined;
}

const invalid = () => new InvalidGrantError('The refresh token is invalid, expired or revoked.');

/**
 * Spends a refresh token and issues a new pair in one statement (`used_at IS NULL`: concurrent uses cannot
 * both rotate). When nothing rotated, a second statement finds out why, and if the token had already been
 * used, revokes its whole grant: every access and refresh token descended from the same consent
 * (OAuth 2.1 §4.3.1, refresh token reuse detection). The loser of two simultaneous refreshes counts as reuse.
 */
export async function refreshTokens(deps: Deps, input: RefreshInput): Promise<TokenResponse> {
  if (!looksLike('refresh', input.refreshToken)) throw invalid();
  const requested = input.scope === undefined ? undefined : parseScope(input.scope);
  if (requested && (!requested.ok || input.scope!.trim() === ''))
    throw new InvalidScopeError('scope names a scope this server does not know.');
  const narrowed = requested?.ok ? formatScope(requested.scopes) : null;
  const now = deps.now().toISOString();
  const hash = await sha256Hex(input.refreshToken);
  const pair = await newTokenPair(deps.now());
  const [row] = await queryRows<{ scope: string; access_scope: string }>(
    deps.db,
    sql`WITH rotated AS (
          UPDATE oauth_tokens t SET used_at = ${now}::timestamptz
          FROM oauth_grants g
          WHERE t.token_hash = ${hash} AND t.kind = 'refresh' AND t.used_at IS NULL AND t.expires_at > ${now}::timestamptz
            AND g.id = t.grant_id AND g.revoked_at IS NULL AND g.client_id = ${input.clientId}
            AND g.resource = coalesce(${input.resource ?? null}::text, g.resource)
            AND (${narrowed}::text IS NULL OR string_to_array(${narrowed}::text, ' ') <@ string_to_array(t.scope, ' '))
          RETURNING t.grant_id, t.scope, coalesce(${narrowed}::text, t.scope) AS access_scope
        ), touched AS (
          UPDATE oauth_grants SET last_used_at = ${now}::timestamptz WHERE id IN (SELECT grant_id FROM rotated) RETURNING id
        ), tokens AS (
          INSERT INTO oauth_tokens (token_hash, grant_id, kind, scope, expires_at, created_at)
          SELECT ${pair.accessHash}, grant_id, 'access', access_scope, ${pair.accessExpiresAt}::timestamptz, ${now}::timestamptz FROM rotated
          UNION ALL
          SELECT ${pair.refreshHash}, grant_id, 'refresh', scope, ${pair.refreshExpiresAt}::timestamptz, ${now}::timestamptz FROM rotated
          RETURNING 1
        )
        SELECT scope, access_scope, (SELECT count(*) FROM touched) + (SELECT count(*) FROM tokens) AS written FROM rotated`,
  );
  if (row) return tokenResponse(pair, row.access_scope);
  throw await whyNotRotated(deps, hash, input, narrowed);
}

interface Diagnosis {
  used: boolean;
  expired: boolean;
  revoked: boolean;
  client_id: string;
  resource: string;
  scope: string;
  family_revoked: number | string;
}

/** One statement: reads the token's state and, if it was used before, revokes its grant (the family). */
async function whyNotRotated(deps: Deps, hash: string, input: RefreshInput, narrowed: string | null): Promise<Error> {
  const now = deps.now().toISOString();
  const [row] = await queryRows<Diagnosis>(
    deps.db,
    sql`WITH token AS (
          SELECT t.grant_id, t.used_at IS NOT NULL AS used, t.expires_at <= ${now}::timestamptz AS expired, t.scope,
            g.revoked_at IS NOT NULL AS revoked, g.client_id, g.resource
          FROM oauth_tokens t JOIN oauth_grants g ON g.id = t.grant_id
          WHERE t.token_hash = ${hash} AND t.kind = 'refresh'
        ), family AS (
          UPDATE oauth_grants SET revoked_at = ${now}::timestamptz
          WHERE id IN (SELECT grant_id FROM token WHERE used) AND revoked_at IS NULL
          RETURNING id
        )
        SELECT used, expired, revoked, client_id, resource, scope, (SELECT count(*) FROM family) AS family_revoked FROM token`,
  );
  if (!row) return invalid();
  if (Number(row.family_revoked) > 0) {
    deps.log.warn('oauth refresh token reused: grant revoked', { clientId: row.client_id });
    return new InvalidGrantError(
      'This refresh token was already used. Every token of this authorization is now revoked; sign in again.',
    );
  }
  if (row.used || row.revoked || row.expired) return invalid();
  if (row.client_id !== input.clientId) return new InvalidGrantError('The refresh token was issued to another client.');
  if (input.resource !== undefined && row.resource !== input.resource) {
    return new InvalidTargetError(`resource differs from the one the refresh token was issued for (${row.resource}).`);
  }
  if (narrowed !== null && !scopesOf(narrowed).every((s) => scopesOf(row.scope).includes(s))) {
    return new InvalidScopeError('scope may only narrow what was granted.');
  }
  return invalid();
}
