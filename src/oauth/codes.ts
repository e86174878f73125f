// Authorization codes: issued when the person allows, redeemed once by token-exchange.ts.
import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { sha256Hex } from '../crypto';
import type { AuthorizationRequest } from './authorization-request';
import { formatScope } from './scopes';
import { CODE_TTL_SECONDS, newSecret } from './secrets';

/**
 * Stores a new code (its hash) bound to everything the token request must repeat: client, redirect URI,
 * PKCE challenge and resource; valid CODE_TTL_SECONDS (10 minutes). Returns the code for the redirect.
 */
export async function issueAuthorizationCode(
  deps: Deps,
  accountId: string,
  request: AuthorizationRequest,
): Promise<string> {
  const code = newSecret('code');
  const now = deps.now();
  const expiresAt = new Date(now.getTime() + CODE_TTL_SECONDS * 1000);
  await queryRows(
    deps.db,
    sql`INSERT INTO oauth_codes (code_hash, client_id, account_id, redirect_uri, code_challenge, resource, scope, expires_at, created_at)
        VALUES (${await sha256Hex(code)}, ${request.client.id}, ${accountId}, ${request.redirectUri}, ${request.codeChallenge},
          ${request.resource}, ${formatScope(request.scopes)}, ${expiresAt.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz)`,
  );
  return code;
}
