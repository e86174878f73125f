// Who presents a bearer credential to the OAuth-protected MCP endpoint: an OAuth access token issued for it,
// or, unchanged, an API key (docs/mcp-and-search.md "Connecting by URL (OAuth)").
import type { Deps } from '../deps';
import type { Actor } from '../accounts/actor';
import { API_KEY_PATTERN, authenticateKey } from '../accounts/api-keys';
import { isServiceError } from '../errors';
import { verifyAccessToken } from './access-tokens';
import type { Scope } from './scopes';

export type BearerCheck =
  /** scopes undefined: an API key, which may do whatever its account may. */
  | { ok: true; actor: Actor; scopes?: Scope[]; via: 'oauth' | 'api_key' }
  /** error undefined: no credential at all (RFC 6750 §3.1: then no error code is sent). */
  | { ok: false; error?: 'invalid_token' | 'invalid_request'; message: string };

/** Checks the Authorization header for `resource` (our /mcp URL). Never throws for a bad credential. */
export async function checkBearer(deps: Deps, token: string | undefined, resource: string): Promise<BearerCheck> {
  if (token === undefined)
    return { ok: false, message: 'Sign in: this endpoint needs an OAuth access token or an API key.' };
  if (API_KEY_PATTERN.test(token)) {
    try {
      return { ok: true, actor: await authenticateKey(deps, token), via: 'api_key' };
    } catch (error) {
      if (isServiceError(error) && error.code === 'unauthorized')
        return { ok: false, error: 'invalid_token', message: 'The API key is invalid or revoked.' };
      throw error;
    }
  }
  const checked = await verifyAccessToken(deps, token, resource);
  if (!checked.ok) return { ok: false, error: 'invalid_token', message: checked.reason };
  return { ok: true, actor: checked.actor, scopes: checked.scopes, via: 'oauth' };
}
