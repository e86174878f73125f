/**
 * One sliding window as the limiter adapters need it: the policy's name (their bucket namespace) and its
 * values. The policies themselves are a rule of the service and live in src/rate-limits/policies.ts.
 */
export interface LimiterWindow {
  name: string;
  limit: number;
  windowSeconds: number;
}

export interface RateLimitResult {
  success: boolean;
  limit: number;
  remaining: number;
  /** Epoch milliseconds at which the next request is allowed again (or the window fully resets). */
  reset: number;
}

/** One limiter interface: in-memory locally, Upstash when configured. Counts one request in `window` for `identifier`. */
export interface RateLimiter {
  limit(window: LimiterWindow, identifier: string): Promise<RateLimitResult>;
}
