import type { LimiterWindow, RateLimitResult, RateLimiter } from './types';

/**
 * Exact sliding-window log in memory: right for one process (the local server and tests).
 * Each call is synchronous up to its return, so concurrent requests cannot both take the last slot.
 */
export function createMemoryLimiter(now: () => number = () => Date.now()): RateLimiter {
  const hits = new Map<string, number[]>();
  let calls = 0;
  return {
    async limit({ name, limit, windowSeconds }: LimiterWindow, identifier: string): Promise<RateLimitResult> {
      const windowMs = windowSeconds * 1000;
      const t = now();
      const key = `${name}:${identifier}`;
      const log = (hits.get(key) ?? []).filter((at) => at > t - windowMs);
      const success = log.length < limit;
      if (success) log.push(t);
      hits.set(key, log);
      if (++calls % 1000 === 0) sweep(hits, t - 3600_000);
      return { success, limit, remaining: Math.max(0, limit - log.length), reset: (log[0] ?? t) + windowMs };
    },
  };
}

// Forget identifiers idle for an hour so a long-running process does not grow without bound.
function sweep(hits: Map<string, number[]>, before: number) {
  for (const [key, log] of hits) if ((log.at(-1) ?? 0) < before) hits.delete(key);
}
