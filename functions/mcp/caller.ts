import type { Deps } from '../../src/deps';
import type { Actor } from '../../src/accounts/actor';
import { authenticateKey } from '../../src/accounts/api-keys';
import { ServiceError } from '../../src/errors';
import { checkRateLimit } from '../../src/rate-limits/check';
import type { RateLimitPolicy } from '../../src/rate-limits/policies';
import type { Scope } from '../../src/oauth/scopes';
import { bearerToken, QUERY_KEY_PARAMS } from '../middleware/api-key-auth';

/** Who is calling the MCP endpoint in this request. Every tool of the request's server closes over one of these. */
export interface McpCaller {
  deps: Deps;
  requestId: string;
  clientIp: string;
  /** The account behind the bearer key; throws unauthorized when the key is missing, invalid or revoked. */
  actor(): Promise<Actor>;
  /** Counts one call against a rate-limit bucket (the same buckets as REST); throws rate_limited when refused. */
  limit(policy: RateLimitPolicy, identifier: string): Promise<void>;
  /** What an OAuth access token allows (POST /mcp); undefined for API keys and the open endpoint (no scope limit). */
  scopes?: readonly Scope[];
}

/** A caller already authenticated at the HTTP level (POST /mcp, functions/mcp/protected.ts). */
export interface Authenticated {
  actor: Actor;
  /** undefined: an API key, which may do everything its account may. */
  scopes?: readonly Scope[];
}

/** Builds the caller from the request. The key is verified lazily, once, and only when a tool needs it. */
export function createCaller(input: {
  deps: Deps;
  requestId: string;
  clientIp: string;
  authorization?: string;
  url: string;
  authenticated?: Authenticated;
}): McpCaller {
  const { deps, authenticated } = input;
  const keyInUrl = QUERY_KEY_PARAMS.some((p) => new URL(input.url).searchParams.has(p));
  const token = bearerToken(input.authorization);
  let verified: Promise<Actor> | undefined;
  const actor = () => {
    if (authenticated) return Promise.resolve(authenticated.actor);
    if (keyInUrl) {
      return Promise.reject(
        new ServiceError('unauthorized', 'API keys are accepted only in the Authorization header, never in the URL.'),
      );
    }
    if (!token) {
      return Promise.reject(
        new ServiceError(
          'unauthorized',
          'This tool needs an API key: configure your MCP client to send Authorization: Bearer <key>.',
        ),
      );
    }
    verified ??= authenticateKey(deps, token);
    return verified;
  };
  return {
    deps,
    requestId: input.requestId,
    clientIp: input.clientIp,
    actor,
    scopes: authenticated?.scopes,
    async limit(policy, identifier) {
      await checkRateLimit(deps, policy, identifier);
    },
  };
}
