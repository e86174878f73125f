import type { Deps } from '../deps';
import { ServiceError } from '../errors';
import { describePolicy } from './describe';
import { type RateLimitPolicy, rateLimitPolicies } from './policies';

/** A bucket's state after a check, what the RateLimit-* headers say; resetSeconds is 0 when it has room now. */
export type RateLimitState = NonNullable<ServiceError['details']['rateLimit']>;

/**
 * Counts one request against `policy` for `identifier` (an account id or a client address) before any work:
 * returns the bucket's state, or throws rate_limited with Retry-After (`details.retryAfterSeconds`) and the
 * state (`details.rateLimit`). With several identifiers (sign-in: the client IP and the e-mail address)
 * every bucket is counted; the request is refused when any is full, and the tightest one is reported.
 * The one path from a limiter's answer to rate_limited, for REST, pages and MCP alike.
 * @example
 * await checkRateLimit(deps, 'submit', actor.accountId);
 */
export async function checkRateLimit(
  deps: Pick<Deps, 'limiter'>,
  policy: RateLimitPolicy,
  identifier: string | readonly string[],
): Promise<RateLimitState> {
  const window = { name: policy, ...rateLimitPolicies[policy] };
  const identifiers = typeof identifier === 'string' ? [identifier] : identifier;
  const results = await Promise.all(identifiers.map((id) => deps.limiter.limit(window, id)));
  const refused = results.find((r) => !r.success);
  const reported = refused ?? results.reduce((tightest, r) => (r.remaining < tightest.remaining ? r : tightest));
  const state = { limit: reported.limit, remaining: reported.remaining, resetSeconds: Math.max(0, Math.ceil((reported.reset - Date.now()) / 1000)) };
  if (!refused) return state;
  const retryAfterSeconds = Math.max(1, state.resetSeconds);
  throw new ServiceError('rate_limited', `Too many requests: at most ${describePolicy(policy)}. Retry in ${retryAfterSeconds} s.`, {
    retryAfterSeconds,
    rateLimit: state,
  });
}
