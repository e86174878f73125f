// checkRateLimit: the one path from a limiter's answer to rate_limited (src/rate-limits/check.ts).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryLimiter } from '../../../src/adapters/ratelimit/memory';
import type { LimiterWindow } from '../../../src/adapters/ratelimit/types';
import { ServiceError } from '../../../src/errors';
import { checkRateLimit } from '../../../src/rate-limits/check';
import { describeApiLimits, describePolicy, describeRate } from '../../../src/rate-limits/describe';
import { PREFIX_48_MULTIPLIER, rateLimitPolicies } from '../../../src/rate-limits/policies';

const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ServiceError);
  return error as ServiceError;
};

describe('checkRateLimit', () => {
  afterEach(() => vi.useRealTimers());

  it('counts each request against the policy from the table and reports the bucket', async () => {
    const deps = { limiter: createMemoryLimiter() };
    const states = [];
    for (let i = 0; i < 10; i++) states.push(await checkRateLimit(deps, 'submit', 'account-a'));
    expect(states.map((s) => s.remaining)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    expect(states.every((s) => s.limit === rateLimitPolicies.submit.limit)).toBe(true);
  });

  it('throws rate_limited past the limit, with Retry-After and the state, in words built from the table', async () => {
    // The limiters' reset is epoch time (Upstash's too): the system clock is fixed, not timed.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(1_000_000);
    const deps = { limiter: createMemoryLimiter() };
    for (let i = 0; i < 10; i++) await checkRateLimit(deps, 'submit', 'account-b');
    vi.setSystemTime(1_052_300); // the oldest of the ten leaves the window 7.7 s from now
    const error = await refusal(checkRateLimit(deps, 'submit', 'account-b'));
    expect(error.code).toBe('rate_limited');
    expect(error.details.retryAfterSeconds).toBe(8);
    expect(error.details.rateLimit).toEqual({ limit: 10, remaining: 0, resetSeconds: 8 });
    expect(error.message).toBe('Too many requests: at most 10 submits per minute per account. Retry in 8 s.');
  });

  it('keeps policies and identifiers apart: the named key-creation and checkout policies are not the submit bucket', async () => {
    const deps = { limiter: createMemoryLimiter() };
    for (let i = 0; i < 10; i++) await checkRateLimit(deps, 'submit', 'account-c');
    await refusal(checkRateLimit(deps, 'submit', 'account-c'));
    expect((await checkRateLimit(deps, 'apiKeyCreate', 'account-c')).remaining).toBe(9);
    expect((await checkRateLimit(deps, 'membershipCheckout', 'account-c')).remaining).toBe(9);
    expect((await checkRateLimit(deps, 'read', 'account-c')).remaining).toBe(59);
    expect((await checkRateLimit(deps, 'submit', 'account-d')).remaining).toBe(9);
  });

  it('with several identifiers counts every bucket, refuses when any is full and reports the tightest', async () => {
    const deps = { limiter: createMemoryLimiter() };
    for (let i = 0; i < 7; i++) await checkRateLimit(deps, 'signin', 'email:x');
    expect(await checkRateLimit(deps, 'signin', ['ip:1', 'email:x'])).toMatchObject({ remaining: 2 });
    expect(await checkRateLimit(deps, 'signin', ['ip:1', 'email:x'])).toMatchObject({ remaining: 1 });
    expect(await checkRateLimit(deps, 'signin', ['ip:1', 'email:x'])).toMatchObject({ remaining: 0 });
    const error = await refusal(checkRateLimit(deps, 'signin', ['ip:1', 'email:x']));
    expect(error.details.rateLimit?.remaining).toBe(0);
    // The IP's bucket was counted on every call, the refused one too: 4 of 10 used.
    expect(await checkRateLimit(deps, 'signin', 'ip:1')).toMatchObject({ remaining: 5 });
  });

  it('passes the adapters the values of the table, under the policy name', async () => {
    const seen: LimiterWindow[] = [];
    const deps = {
      limiter: {
        async limit(window: LimiterWindow) {
          seen.push(window);
          return { success: true, limit: window.limit, remaining: window.limit - 1, reset: Date.now() };
        },
      },
    };
    await checkRateLimit(deps, 'public', '203.0.113.1');
    expect(seen).toEqual([{ name: 'public', ...rateLimitPolicies.public }]);
  });

  it('counts an IPv6 client in its /64 bucket and in a looser bucket of its /48 network, for per-IP policies only', async () => {
    const seen: [LimiterWindow, string][] = [];
    const deps = {
      limiter: {
        async limit(window: LimiterWindow, identifier: string) {
          seen.push([window, identifier]);
          return { success: true, limit: window.limit, remaining: window.limit - 1, reset: Date.now() };
        },
      },
    };
    await checkRateLimit(deps, 'public', '2001:db8:1:2::/64');
    await checkRateLimit(deps, 'signin', ['request:ip:2001:db8:1:2::/64', 'email:x']);
    await checkRateLimit(deps, 'submit', '2001:db8:1:2::/64'); // a per-account policy: an odd account id, one bucket
    const wide = (policy: 'public' | 'signin') => ({
      name: `${policy}/48`,
      ...rateLimitPolicies[policy],
      limit: rateLimitPolicies[policy].limit * PREFIX_48_MULTIPLIER,
    });
    expect(seen).toEqual([
      [{ name: 'public', ...rateLimitPolicies.public }, '2001:db8:1:2::/64'],
      [wide('public'), '2001:db8:1::/48'],
      [{ name: 'signin', ...rateLimitPolicies.signin }, 'request:ip:2001:db8:1:2::/64'],
      [wide('signin'), 'request:ip:2001:db8:1::/48'],
      [{ name: 'signin', ...rateLimitPolicies.signin }, 'email:x'],
      [{ name: 'submit', ...rateLimitPolicies.submit }, '2001:db8:1:2::/64'],
    ]);
  });

  it('refuses every /64 of a /48 once the /48 has spent its budget, saying so', async () => {
    const deps = { limiter: createMemoryLimiter() };
    const { limit } = rateLimitPolicies.badges;
    // PREFIX_48_MULTIPLIER networks spend their whole /64 budget; each stays within its own.
    for (let n = 0; n < PREFIX_48_MULTIPLIER; n++) {
      for (let i = 0; i < limit; i++) await checkRateLimit(deps, 'badges', `2001:db8:7:${n.toString(16)}::/64`);
    }
    const error = await refusal(checkRateLimit(deps, 'badges', '2001:db8:7:ff::/64'));
    expect(error.message).toMatch(
      new RegExp(
        `^Too many requests: at most ${limit * PREFIX_48_MULTIPLIER} badge loads per minute per IPv6 /48 network\\. Retry in \\d+ s\\.$`,
      ),
    );
    expect(error.details.rateLimit).toMatchObject({ limit: limit * PREFIX_48_MULTIPLIER, remaining: 0 });
    // The next /48, and IPv4 clients, are other buckets.
    expect((await checkRateLimit(deps, 'badges', '2001:db8:8:0::/64')).remaining).toBe(limit - 1);
    expect((await checkRateLimit(deps, 'badges', '203.0.113.9')).remaining).toBe(limit - 1);
  });
});

describe('texts built from the policy table', () => {
  it('says what the table says', () => {
    expect(describeRate('submit')).toBe('10 submits per minute');
    expect(describePolicy('read')).toBe('60 reads per minute per account');
    expect(describePolicy('public')).toBe('60 requests per minute per client IP');
    expect(describePolicy('outboundLinks')).toBe('60 outbound links per minute per client IP');
    expect(describePolicy('badges')).toBe('60 badge loads per minute per client IP');
    expect(describeApiLimits()).toBe(
      'Per account (all its API keys share the buckets, MCP tool calls included): 10 submits per minute and 60 reads per minute. ' +
        'Per client IP: 60 requests per minute to unauthenticated endpoints, every search included. ' +
        'A client IP is an IPv4 address or an IPv6 /64 network, and every IPv6 /48 network also shares 16 times each per-IP limit.',
    );
  });
});
