import type { Context } from 'hono';
import { isServiceError } from '../../src/errors';
import { checkRateLimit, type RateLimitState } from '../../src/rate-limits/check';
import type { RateLimitPolicy } from '../../src/rate-limits/policies';
import type { AppEnv } from '../types';

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
