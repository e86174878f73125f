import type { Context, MiddlewareHandler } from 'hono';
import { isServiceError } from '../../src/errors';
import { checkRateLimit, type RateLimitState } from '../../src/rate-limits/check';
import { rateLimitPolicies, type RateLimitPolicy } from '../../src/rate-limits/policies';
import type { AppEnv } from '../types';
import { afterValidation } from './after-validation';
import { clientIp } from './client-ip';

function setRateLimitHeaders(c: Context<AppEnv>, state: RateLimitState) {
  c.header('RateLimit-Limit', String(state.limit));
  c.header('RateLimit-Remaining', String(state.remaining));
  c.header('RateLimit-Reset', String(state.resetSeconds));
}

/**
 * Checks a policy before doing anything (src/rate-limits/check.ts): a refused request has no side effect and
 * runs no statement (docs/decisions.md, "Rate limits": "the limiter decides before any expensive
 * statement runs"). Reads too: the limiter answers first, then the read runs (docs/bench.md, "Limits before
 * work"). Sets the RateLimit-* headers either way; a refusal throws rate_limited, which the error renderers
 * answer with Retry-After.
 */
export async function enforceRateLimit(
  c: Context<AppEnv>,
  policy: RateLimitPolicy,
  identifier: string | readonly string[],
): Promise<void> {
  try {
    setRateLimitHeaders(c, await checkRateLimit(c.get('deps'), policy, identifier));
  } catch (error) {
    if (isServiceError(error) && error.details.rateLimit) setRateLimitHeaders(c, error.details.rateLimit);
    throw error;
  }
}

/** The policies whose bucket a route can name from the request alone: the account's, or the client address's. */
export type RouteRateLimitPolicy = {
  [P in RateLimitPolicy]: (typeof rateLimitPolicies)[P]['per'] extends 'account' | 'client IP' ? P : never;
}[RateLimitPolicy];

/**
 * The rate limit a route declares at the end of its `middleware`: counted after authentication and after the
 * route's schema validation, right before the handler (./after-validation.ts), so a request refused as 401 or by its
 * schema (400) counts against no bucket. A per-account policy counts the authenticated actor's account (it needs
 * `requireApiKey` before it); a per-IP policy counts the client address (./client-ip.ts). As an `app.use`
 * middleware it counts before the route, which suits a page or document with no input to validate.
 * @example
 * createRoute({ ..., middleware: [requireApiKey, rateLimit('read')] as const });
 * app.use(DOCS_PATH, rateLimit('public'));
 */
export function rateLimit(policy: RouteRateLimitPolicy): MiddlewareHandler<AppEnv> {
  const perAccount = rateLimitPolicies[policy].per === 'account';
  return afterValidation(async (c, next) => {
    if (perAccount) {
      const actor = c.get('actor');
      if (!actor) throw new Error(`rateLimit('${policy}') counts per account: declare it after requireApiKey`);
      await enforceRateLimit(c, policy, actor.accountId);
    } else {
      await enforceRateLimit(c, policy, clientIp(c));
    }
    await next();
  });
}
