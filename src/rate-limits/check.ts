import type { LimiterWindow } from '../adapters/ratelimit/types';
import type { Deps } from '../deps';
import { ServiceError } from '../errors';
import { prefix48Of } from './client-group';
import { describePolicy, describePrefix48Policy } from './describe';
import { isPerClientIp, PREFIX_48_MULTIPLIER, type RateLimitPolicy, rateLimitPolicies } from './policies';

/** A bucket's state after a check, what the RateLimit-* headers say; resetSeconds is 0 when it has room now. */
export type RateLimitState = NonNullable<ServiceError['details']['rateLimit']>;

interface Bucket {
  window: LimiterWindow;
  identifier: string;
  /** How a refusal by this bucket is worded. */
  describe: () => string;
}

/**
 * The buckets one request is counted in: one per identifier, and for a per-IP policy one more per IPv6 /48
 * network (PREFIX_48_MULTIPLIER times as large, its own namespace `<policy>/48`), so a /48's 65,536 /64s share
 * one looser budget on top of their own.
 */
function bucketsOf(policy: RateLimitPolicy, identifiers: readonly string[]): Bucket[] {
  const window = { name: policy, ...rateLimitPolicies[policy] };
  const wide = { ...window, name: `${policy}/48`, limit: window.limit * PREFIX_48_MULTIPLIER };
  return identifiers.flatMap((identifier) => {
    const own: Bucket = { window, identifier, describe: () => describePolicy(policy) };
    const network = isPerClientIp(policy) ? prefix48Of(identifier) : undefined;
    return network
      ? [own, { window: wide, identifier: network, describe: () => describePrefix48Policy(policy) }]
      : [own];
  });
}

/**
 * Counts one request against `policy` for `identifier` (an account id or a client address) before any work:
 * returns the bucket's state, or throws rate_limited with Retry-After (`details.retryAfterSeconds`) and the
 * state (`details.rateLimit`). With several identifiers (sign-in: the client IP and the e-mail address)
 * every bucket is counted; the request is refused when any is full, and the tightest one is reported. An IPv6
 * client is also counted in its /48 network's bucket (above).
 * The one path from a limiter's answer to rate_limited, for REST, pages and MCP alike.
 * @example
 * await checkRateLimit(deps, 'submit', actor.accountId);
 */
export async function checkRateLimit(
  deps: Pick<Deps, 'limiter'>,
  policy: RateLimitPolicy,
  identifier: string | readonly string[],
): Promise<RateLimitState> {
  const buckets = bucketsOf(policy, typeof identifier === 'string' ? [identifier] : identifier);
  const results = await Promise.all(buckets.map((b) => deps.limiter.limit(b.window, b.identifier)));
  const refusedAt = results.findIndex((r) => !r.success);
  const reported =
    refusedAt >= 0
      ? results[refusedAt]!
      : results.reduce((tightest, r) => (r.remaining < tightest.remaining ? r : tightest));
  const state = {
    limit: reported.limit,
    remaining: reported.remaining,
    resetSeconds: Math.max(0, Math.ceil((reported.reset - Date.now()) / 1000)),
  };
  if (refusedAt < 0) return state;
  const retryAfterSeconds = Math.max(1, state.resetSeconds);
  throw new ServiceError(
    'rate_limited',
    `Too many requests: at most ${buckets[refusedAt]!.describe()}. Retry in ${retryAfterSeconds} s.`,
    {
      retryAfterSeconds,
      rateLimit: state,
    },
  );
}
