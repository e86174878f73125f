import type { Ratelimit } from '@upstash/ratelimit';
import type { Logger } from '../../log';
import type { LimiterWindow, RateLimitResult, RateLimiter } from './types';
import { createUpstashScriptClient } from './upstash-scripts';

const REDIS_TIMEOUT_MS = 1000;

/**
 * @upstash/ratelimit sliding windows, one instance (and prefix) per policy name, created once per isolate
 * from the values the caller passes (src/rate-limits/policies.ts).
 * If Redis errors or is slow, the request is served and the fault logged: quota and payment are
 * enforced by the database, so failing open costs only the per-minute limit.
 */
export function createUpstashLimiter(options: {
  url: string;
  token: string;
  log: Logger;
  /** How long a Redis call may take before the request is served anyway (1 s; tests on a loaded machine raise it). */
  timeoutMs?: number;
}): RateLimiter {
  const timeoutMs = options.timeoutMs ?? REDIS_TIMEOUT_MS;
  // The SDK is imported on the first limited request, not when the isolate starts. Its Redis is the two script
  // commands it sends (./upstash-scripts.ts), typed as the client it expects.
  let sdk: Promise<{ Ratelimit: typeof Ratelimit; redis: import('@upstash/redis').Redis }> | undefined;
  const loadSdk = () =>
    (sdk ??= import('./upstash-sdk')
      .then((loaded) => ({
        Ratelimit: loaded.Ratelimit,
        redis: createUpstashScriptClient({
          url: options.url,
          token: options.token,
        }) as unknown as import('@upstash/redis').Redis,
      }))
      .catch((error: unknown) => {
        sdk = undefined; // a failed load is retried by the next call
        throw error;
      }));
  // Keyed by the values too: a window is fixed when its Ratelimit is built.
  const limiters = new Map<string, Ratelimit>();
  const limiterFor = async ({ name, limit, windowSeconds }: LimiterWindow) => {
    const key = `${name}:${limit}:${windowSeconds}`;
    let limiter = limiters.get(key);
    if (!limiter) {
      const { Ratelimit, redis } = await loadSdk();
      // A concurrent first call may have built it while this one awaited the SDK.
      const built = limiters.get(key);
      if (built) return built;
      limiter = new Ratelimit({
        redis,
        prefix: `tooldir:rl:${name}`,
        limiter: Ratelimit.slidingWindow(limit, `${windowSeconds} s`),
        analytics: false,
        timeout: timeoutMs,
      });
      limiters.set(key, limiter);
    }
    return limiter;
  };

  return {
    async limit(window, identifier): Promise<RateLimitResult> {
      const { name: policy, limit } = window;
      const failOpen = { success: true, limit, remaining: limit, reset: Date.now() } satisfies RateLimitResult;
      try {
        // Loading the SDK (once per isolate) is not a Redis round trip: only the call itself is timed.
        const limiter = await limiterFor(window);
        const result = await Promise.race([
          limiter.limit(identifier),
          new Promise<undefined>((resolve) => setTimeout(resolve, timeoutMs + 100)),
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
