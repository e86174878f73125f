import { type RateLimitPolicy, rateLimitPolicies } from './policies';

// Human texts about the limits, built from the policy table so no description can disagree with it.

const perWindow = (seconds: number) => (seconds === 60 ? 'per minute' : `per ${seconds} s`);

/** "10 submits per minute". */
export function describeRate(policy: RateLimitPolicy): string {
  const { limit, windowSeconds, counts } = rateLimitPolicies[policy];
  return `${limit} ${counts} ${perWindow(windowSeconds)}`;
}

/** "10 submits per minute per account". */
export function describePolicy(policy: RateLimitPolicy): string {
  return `${describeRate(policy)} per ${rateLimitPolicies[policy].per}`;
}

/** The limits an API client meets, in one sentence (openapi.json, llms.txt, README). */
export function describeApiLimits(): string {
  return (
    `Per account (all its API keys share the buckets, MCP tool calls included): ${describeRate('submit')} and ` +
    `${describeRate('read')}. Per client IP: ${describeRate('public')} to unauthenticated endpoints, every search included.`
  );
}
