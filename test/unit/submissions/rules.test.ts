import { describe, expect, it } from 'vitest';
import { decideSubmit, tierCoversPlan, type SubmitFacts } from '../../../src/submissions/rules';
import { isMembershipActive, utcDay, type Membership } from '../../../src/accounts/memberships';

const now = new Date('2026-11-21T12:00:00Z');
const limits = { member: 5, memberFeature: 10 };
const active = (tier: Membership['tier']): Membership => ({ tier, status: 'active', periodEnd: null });
const facts = (over: Partial<SubmitFacts>): SubmitFacts => ({
  membership: active('member'),
  plan: 'basic',
  usedToday: 0,
  limits,
  hasPendingForUrl: false,
  now,
  ...over,
});

describe('decideSubmit: the section 3 rows', () => {
  it('member with quota and a covered plan is queued with its daily limit', () => {
    expect(decideSubmit(facts({}))).toEqual({ path: 'queue', dailyLimit: 5 });
    expect(decideSubmit(facts({ membership: active('memberFeature'), plan: 'featured' }))).toEqual({
      path: 'queue',
      dailyLimit: 10,
    });
  });

  it.each([
    ['no tier', facts({ membership: { tier: 'none', status: 'none', periodEnd: null } }), 'no_membership'],
    ['canceled', facts({ membership: { tier: 'member', status: 'canceled', periodEnd: null } }), 'no_membership'],
    ['past_due', facts({ membership: { tier: 'member', status: 'past_due', periodEnd: null } }), 'no_membership'],
    [
      'period ended',
      facts({ membership: { tier: 'member', status: 'active', periodEnd: new Date('2026-11-21T11:59:59Z') } }),
      'no_membership',
    ],
    ['member + featured', facts({ plan: 'featured' }), 'plan_not_covered'],
    ['member + sponsored', facts({ plan: 'sponsored' }), 'plan_not_covered'],
    ['memberFeature + pro', facts({ membership: active('memberFeature'), plan: 'pro' }), 'plan_not_covered'],
    ['quota used up', facts({ usedToday: 5 }), 'quota_exceeded'],
    ['memberFeature quota used up', facts({ membership: active('memberFeature'), usedToday: 10 }), 'quota_exceeded'],
  ])('%s -> 402 %s', (_label, f, reason) => {
    expect(decideSubmit(f)).toEqual({ path: 'payment', reason });
  });

  it('reason precedence: no_membership, then plan_not_covered, then quota_exceeded', () => {
    const noMember = { tier: 'none', status: 'none', periodEnd: null } as const;
    expect(decideSubmit(facts({ membership: noMember, plan: 'pro', usedToday: 99 }))).toEqual({
      path: 'payment',
      reason: 'no_membership',
    });
    expect(decideSubmit(facts({ plan: 'featured', usedToday: 99 }))).toEqual({
      path: 'payment',
      reason: 'plan_not_covered',
    });
  });

  it('a re-submit of an unpaid URL that still does not qualify says payment_pending', () => {
    expect(decideSubmit(facts({ usedToday: 5, hasPendingForUrl: true }))).toEqual({
      path: 'payment',
      reason: 'payment_pending',
    });
    expect(decideSubmit(facts({ membership: active('none'), hasPendingForUrl: true }))).toEqual({
      path: 'payment',
      reason: 'payment_pending',
    });
  });

  it('a re-submit of an unpaid URL that now qualifies is queued', () => {
    expect(decideSubmit(facts({ hasPendingForUrl: true }))).toEqual({ path: 'queue', dailyLimit: 5 });
  });

  it('trialing counts as active; a future period end is fine', () => {
    expect(isMembershipActive({ tier: 'member', status: 'trialing', periodEnd: new Date('2026-12-01Z') }, now)).toBe(
      true,
    );
  });
});

describe('tierCoversPlan', () => {
  it.each([
    ['none', 'basic', false],
    ['member', 'basic', true],
    ['member', 'featured', false],
    ['member', 'sponsored', false],
    ['memberFeature', 'basic', true],
    ['memberFeature', 'featured', true],
    ['memberFeature', 'sponsored', false],
    ['memberFeature', 'pro', false],
  ] as const)('%s covers %s: %s', (tier, plan, covered) => {
    expect(tierCoversPlan(tier, plan)).toBe(covered);
  });
});

it('the quota day is the UTC day', () => {
  expect(utcDay(new Date('2026-11-21T23:59:59.999Z'))).toBe('2026-11-21');
  expect(utcDay(new Date('2026-11-22T00:00:00.000+01:00'))).toBe('2026-11-21');
});
