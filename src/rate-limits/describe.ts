import { PREFIX_48_MULTIPLIER, type RateLimitPolicy, rateLimitPolicies } from './policies';

// Human texts about the limits, built from the policy table so no description can disagree with it.

const perWindow = (seconds: number) =>
  seconds === 60 ? 'per minute' : seconds === 3600 ? 'per hour' : `per ${seconds} s`;

/** "10 submits per minute". */
export function describeRate(policy: RateLimitPolicy): string {
  const { limit, windowSeconds, counts } = rateLimitPolicies[policy];
  return `${limit} ${counts} ${perWindow(windowSeconds)}`;
}

/** "10 submits per minute per account". */
export function describePolicy(policy: RateLimitPolicy): string {
  return `${describeRate(policy)} per ${rateLimitPolicies[policy].per}`;
}

/** "960 requests per minute per IPv6 /48 network": the looser bucket beside a per-IP one (./check.ts). */
export function describePrefix48Policy(policy: RateLimitPolicy): string {
  const { limit, windowSeconds, counts } = rateLimitPolicies[policy];
  return `${limit * PREFIX_48_MULTIPLIER} ${counts} ${perWindow(windowSeconds)} per IPv6 /48 network`;
}

/** The limits an API client meets, in one sentence (openapi.json, llms.txt, README). */
export function describeApiLimits(): string {
  return (
    `Per account (all its API keys share the buckets, MCP tool calls included): ${describeRate('submit')} and ` +
    `${describeRate('read')}. Per client IP: ${describeRate('public')} to unauthenticated endpoints, every search included. ` +
    `A client IP is an IPv4 address or an IPv6 /64 network, and every IPv6 /48 network also shares ${PREFIX_48_MULTIPLIER} times each per-IP limit.`
  );
}
