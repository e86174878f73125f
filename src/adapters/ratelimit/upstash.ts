import { Ratelimit } from '@upstash/ratelimit';
import { Redis } from '@upstash/redis';
import type { Logger } from '../../log';
import type { RateLimitPolicy, RateLimitResult, RateLimiter } from './policies';
import { rateLimitPolicies } from './policies';

const REDIS_TIMEOUT_MS = 1000;

/**
 * @upstash/ratelimit sliding windows, one instance (and prefix) per policy, created once per isolate.
 * If Redis errors or is slow, the request is served and the fault logged: quota and payment are
 * enforced by the database, so failing open costs only the per-minute limit.
 */
export function createUpstashLimiter(options: { url: string; token: string; log: Logger }): RateLimiter {
  const redis = new Redis({ url: options.url, token: options.token, retry: false, enableTelemetry: false });
  const limiters = new Map<RateLimitPolicy, Ratelimit>();
  const limiterFor = (policy: RateLimitPolicy) => {
    let limiter = limiters.get(policy);
    if (!limiter) {
      const { limit, windowSeconds } = rateLimitPolicies[policy];
      limiter = new Ratelimit({
        redis,
        prefix: `tooldir:rl:${policy}`,
        limiter: Ratelimit.slidingWindow(limit, `${windowSeconds} s`),
        analytics: false,
        timeout: REDIS_TIMEOUT_MS,
      });
      limiters.set(policy, limiter);
    }
    return limiter;
  };

  return {
    async limit(policy, identifier): Promise<RateLimitResult> {
      const { limit } = rateLimitPolicies[policy];
      const failOpen = { success: true, limit, remaining: limit, reset: Date.now() } satisfies RateLimitResult;
      try {
        const result = await Promise.race([
          limiterFor(policy).limit(identifier),
          new Promise<undefined>((resolve) => setTimeout(resolve, REDIS_TIMEOUT_MS + 100)),
        ]);
        if (!result) {
          options.log.warn('rate limiter timed out; request served', { policy });
          return failOpen;
        }
        // ratelimit's own timeout resolves with success and reason "timeout": log that too.
        if ((result as { reason?: string }).reason === 'timeout') {
          options.log.warn('rate limiter timed out; request served', { policy });
        }
        return { success: result.success, limit: result.limit, remaining: result.remaining, reset: result.reset };
      } catch (error) {
        options.log.error('rate limiter failed; request served', { policy, err: String(error) });
        return failOpen;
      }
    },
  };
}
