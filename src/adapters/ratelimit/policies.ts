/** The rate-limit policy table: one sliding window per policy and identifier (API key id or client IP). */
export const rateLimitPolicies = {
  submit: { limit: 10, windowSeconds: 60 },
  read: { limit: 60, windowSeconds: 60 },
  public: { limit: 60, windowSeconds: 60 },
  admin: { limit: 120, windowSeconds: 60 },
  signin: { limit: 10, windowSeconds: 60 },
} as const;

export type RateLimitPolicy = keyof typeof rateLimitPolicies;

export interface RateLimitResult {
  success: boolean;
  limit: number;
  remaining: number;
  /** Epoch milliseconds at which the next request is allowed again (or the window fully resets). */
  reset: number;
}

/** One limiter interface: in-memory locally, Upstash when configured. */
export interface RateLimiter {
  limit(policy: RateLimitPolicy, identifier: string): Promise<RateLimitResult>;
}
