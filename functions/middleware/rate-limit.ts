import type { Context } from 'hono';
import { ServiceError } from '../../src/errors';
import type { RateLimitPolicy, RateLimitResult } from '../../src/adapters/ratelimit/policies';
import type { AppEnv } from '../types';

/** Sets RateLimit-* headers from a limiter answer and throws rate_limited (with Retry-After) when refused. */
export function applyRateLimitResult(c: Context<AppEnv>, result: RateLimitResult): void {
  const resetSeconds = Math.max(0, Math.ceil((result.reset - Date.now()) / 1000));
  c.header('RateLimit-Limit', String(result.limit));
  c.header('RateLimit-Remaining', String(result.remaining));
  c.header('RateLimit-Reset', String(resetSeconds));
  if (!result.success) {
    throw new ServiceError('rate_limited', `Too many requests. Retry in ${Math.max(1, resetSeconds)} s.`, {
      retryAfterSeconds: Math.max(1, resetSeconds),
    });
  }
}

/**
 * Checks a policy before doing anything: a refused request has no side effect and runs no statement
 * (../shared/spec/DECISIONS.md, Rate limits: "the limiter decides before any expensive statement runs").
 * Reads too: the limiter answers first, then the read runs (docs/bench.md, "Limits before work").
 */
export async function enforceRateLimit(c: Context<AppEnv>, policy: RateLimitPolicy, identifier: string): Promise<void> {
  applyRateLimitResult(c, await c.get('deps').limiter.limit(policy, identifier));
}
