// grant_type=authorization_code (OAuth 2.1 §4.1.3): one statement redeems the code and issues the tokens.
import { sql } from 'drizzle-orm';
import {
  InvalidGrantError,
  InvalidRequestError,
  InvalidTargetError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { sha256Hex } from '../crypto';
import { isCodeVerifier, s256Challenge } from './pkce';
import { looksLike } from './secrets';
import { newTokenPair, tokenResponse, type TokenResponse } from './token-response';

export interface CodeExchangeInput {
  clientId: string;
  code: string | undefined;
  redirectUri: string | undefined;
  codeVerifier: string | undefined;
  /** RFC 8707: optional here; when given it must be the resource the code was issued for. */
  resource: string | undefined;
}

interface Redeemed {
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  resource: string;
  scope: string;
  fresh: boolean;
  issued: number | string;
}

/**
 * Redeems a code. The code is spent by the first attempt that presents it, right or wrong (a stolen code
 * tried without the verifier is dead for everyone); tokens are issued only when client, redirect URI, PKCE
 * verifier, resource and the 10-minute lifetime all match. Concurrent redemptions: exactly one wins
 * (`used_at IS NULL` in one UPDATE). A code presented again revokes the grant it produced (RFC 6749 §4.1.2).
 */
export async function exchangeAuthorizationCode(deps: Deps, input: CodeExchangeInput): Promise<TokenResponse> {
  if (!input.redirectUri)
    throw new InvalidRequestError('redirect_uri is required: the one the authorization request used.');
  if (!input.codeVerifier || !isCodeVerifier(input.codeVerifier)) {
    throw new InvalidRequestError('code_verifier is required: 43 to 128 characters of A-Z a-z 0-9 - . _ ~ (RFC 7636).');
  }
  if (!looksLike('code', input.code))
    throw new InvalidGrantError('The authorization code is invalid, expired or already used.');
  const now = deps.now().toISOString();
  const codeHash = await sha256Hex(input.code);
  const grantId = crypto.randomUUID();
  const pair = await newTokenPair(deps.now());
  const [row] = await queryRows<Redeemed>(
    deps.db,
    sql`WITH redeemed AS (
          UPDATE oauth_codes SET used_at = ${now}::timestamptz, grant_id = ${grantId}::uuid
          WHERE code_hash = ${codeHash} AND used_at IS NULL
          RETURNING account_id, client_id, redirect_uri, code_challenge, resource, scope, expires_at
        ), accepted AS (
          SELECT * FROM redeemed
          WHERE client_id = ${input.clientId} AND redirect_uri = ${input.redirectUri}
            AND code_challenge = ${s256Challenge(input.codeVerifier)} AND resource = coalesce(${input.resource ?? null}::text, resource)
            AND expires_at > ${now}::timestamptz
        ), new_grant AS (
          INSERT INTO oauth_grants (id, account_id, client_id, redirect_uri, scope, resource, created_at, last_used_at)
          SELECT ${grantId}::uuid, account_id, client_id, redirect_uri, scope, resource, ${now}::timestamptz, ${now}::timestamptz FROM accepted
          RETURNING id, scope
        ), tokens AS (
          INSERT INTO oauth_tokens (token_hash, grant_id, kind, scope, expires_at, created_at)
          SELECT ${pair.accessHash}, id, 'access', scope, ${pair.accessExpiresAt}::timestamptz, ${now}::timestamptz FROM new_grant
          UNION ALL
          SELECT ${pair.refreshHash}, id, 'refresh', scope, ${pair.refreshExpiresAt}::timestamptz, ${now}::timestamptz FROM new_grant
          RETURNING 1
        )
        SELECT client_id, redirect_uri, code_challenge, resource, scope, expires_at > ${now}::timestamptz AS fresh,
          (SELECT count(*) FROM tokens) AS issued
        FROM redeemed`,
  );
  if (!row) {
    await revokeGrantOfReusedCode(deps, codeHash);
    throw new InvalidGrantError('The authorization code is invalid, expired or already used.');
  }
  if (Number(row.issued) === 2) return tokenResponse(pair, row.scope);
  throw mismatch(row, input);
}

/** Why a redeemed code gave no tokens; the code is spent either way. */
function mismatch(row: Redeemed, input: CodeExchangeInput): Error {
  if (row.client_id !== input.clientId)
    return new InvalidGrantError('The authorization code was issued to another client.');
  if (row.redirect_uri !== input.redirectUri)
    return new InvalidGrantError('redirect_uri differs from the one of the authorization request.');
  if (input.resource !== undefined && row.resource !== input.resource) {
    return new InvalidTargetError(`resource differs from the one the code was issued for (${row.resource}).`);
  }
  if (!row.fresh) return new InvalidGrantError('The authorization code has expired (codes live 10 minutes).');
  return new InvalidGrantError('code_verifier does not match the code_challenge of the authorization request.');
}

/** A spent code presented again: the tokens it produced may be in the wrong hands, so their grant ends. */
async function revokeGrantOfReusedCode(deps: Deps, codeHash: string): Promise<void> {
  const revoked = await queryRows<{ id: string }>(
    deps.db,
    sql`UPDATE oauth_grants SET revoked_at = ${deps.now().toISOString()}::timestamptz
        WHERE id = (SELECT grant_id FROM oauth_codes WHERE code_hash = ${codeHash} AND used_at IS NOT NULL) AND revoked_at IS NULL
        RETURNING id`,
  );
  if (revoked.length > 0) deps.log.warn('oauth code reused: grant revoked', { grantId: revoked[0]!.id });
}
