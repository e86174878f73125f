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

/** Checks a policy before doing anything: a refused request has no side effect. */
export async function enforceRateLimit(c: Context<AppEnv>, policy: RateLimitPolicy, identifier: string): Promise<void> {
  applyRateLimitResult(c, await c.get('deps').limiter.limit(policy, identifier));
}

/**
 * For side-effect-free reads: the limiter call and the read run in parallel (one round trip of latency);
 * a refused request still answers 429 and its result is discarded.
 */
export async function readWithRateLimit<T>(c: Context<AppEnv>, policy: RateLimitPolicy, identifier: string, read: () => Promise<T>): Promise<T> {
  const [limit, result] = await Promise.allSettled([c.get('deps').limiter.limit(policy, identifier), read()]);
  if (limit.status === 'rejected') throw limit.reason;
  applyRateLimitResult(c, limit.value);
  if (result.status === 'rejected') throw result.reason;
  return result.value;
}
