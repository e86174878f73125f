import { describe, expect, it } from 'vitest';
import {
  membershipChange,
  paidPeriodFromInvoice,
  paidPeriodFromSubscription,
  recordedTier,
  tierForPrices,
} from '../../../src/payments/membership-rules';

const membershipFromSubscription = (
  s: { status: string; periodEnd?: number },
  tier: 'member' | 'memberFeature',
  deleted: boolean,
) => membershipChange(paidPeriodFromSubscription(s, { deleted }), tier);
const membershipFromInvoice = (i: { periodEnd?: number }, tier: 'member' | 'memberFeature', paid: boolean) =>
  membershipChange(paidPeriodFromInvoice(i, { paid }), tier);
import { isMembershipActive } from '../../../src/accounts/memberships';

const prices = { member: 'price_m', memberFeature: 'price_mf', sponsored: 'price_s' };
const end = 1_900_000_000;

describe('tierForPrices', () => {
  it('maps the configured Prices to tiers; memberFeature wins; others are not memberships', () => {
    expect(tierForPrices(['price_m'], prices)).toBe('member');
    expect(tierForPrices(['price_mf'], prices)).toBe('memberFeature');
    expect(tierForPrices(['price_m', 'price_mf'], prices)).toBe('memberFeature');
    expect(tierForPrices(['price_s'], prices)).toBeUndefined();
    expect(tierForPrices(['price_m'], undefined)).toBeUndefined();
    expect(tierForPrices([], prices)).toBeUndefined();
  });
});

describe('recordedTier', () => {
  it('reads the tier our membership session was made for; anything else is the basic tier', () => {
    expect(recordedTier('memberFeature')).toBe('memberFeature');
    expect(recordedTier('member')).toBe('member');
    expect(recordedTier('gold')).toBe('member');
  });
});

describe('paidPeriodFromSubscription (memberships and sponsorships alike)', () => {
  it('says whether the subscription ended, independent of the tier', () => {
    expect(paidPeriodFromSubscription({ status: 'past_due', periodEnd: end }, { deleted: false })).toEqual({
      status: 'past_due',
      periodEnd: new Date(end * 1000),
      periodMode: 'keep',
      ended: false,
    });
    expect(paidPeriodFromSubscription({ status: 'incomplete_expired' }, { deleted: false })).toEqual({
      status: 'canceled',
      periodEnd: null,
      periodMode: 'keep',
      ended: true,
    });
    expect(paidPeriodFromSubscription({ status: 'active', periodEnd: end }, { deleted: true }).ended).toBe(true);
  });
});

describe('membershipFromSubscription', () => {
  it('active and trialing set the period end', () => {
    expect(membershipFromSubscription({ status: 'active', periodEnd: end }, 'member', false)).toEqual({
      tier: 'member',
      status: 'active',
      periodEnd: new Date(end * 1000),
      periodMode: 'set',
    });
    expect(membershipFromSubscription({ status: 'trialing', periodEnd: end }, 'memberFeature', false).periodMode).toBe(
      'set',
    );
  });

  it('past_due and unpaid keep the paid period end (the subscription already shows the unpaid next one)', () => {
    expect(membershipFromSubscription({ status: 'past_due', periodEnd: end }, 'member', false)).toMatchObject({
      status: 'past_due',
      periodMode: 'keep',
      tier: 'member',
    });
    expect(membershipFromSubscription({ status: 'unpaid', periodEnd: end }, 'member', false)).toMatchObject({
      status: 'unpaid',
      periodMode: 'keep',
    });
  });

  it('deleted, canceled and incomplete_expired end the membership', () => {
    for (const [status, deleted] of [
      ['active', true],
      ['canceled', false],
      ['incomplete_expired', false],
    ] as const) {
      expect(membershipFromSubscription({ status, periodEnd: end }, 'member', deleted)).toMatchObject({
        tier: 'none',
        status: 'canceled',
      });
    }
  });
});

describe('membershipFromInvoice', () => {
  it('paid extends, failed marks past_due and keeps the period', () => {
    expect(membershipFromInvoice({ periodEnd: end }, 'member', true)).toEqual({
      tier: 'member',
      status: 'active',
      periodEnd: new Date(end * 1000),
      periodMode: 'extend',
    });
    expect(membershipFromInvoice({ periodEnd: end }, 'member', false)).toMatchObject({
      status: 'past_due',
      periodMode: 'keep',
    });
    expect(membershipFromInvoice({}, 'member', true).periodEnd).toBeNull();
  });
});

describe('a failed renewal keeps the membership until the period ends', () => {
  it('past_due is active before the period end and not after', () => {
    const periodEnd = new Date('2026-12-01T00:00:00Z');
    const m = { tier: 'member' as const, status: 'past_due', periodEnd };
    expect(isMembershipActive(m, new Date('2026-11-30T23:59:59Z'))).toBe(true);
    expect(isMembershipActive(m, new Date('2026-12-01T00:00:01Z'))).toBe(false);
    expect(isMembershipActive({ ...m, status: 'unpaid' }, new Date('2026-11-30T00:00:00Z'))).toBe(false);
    expect(isMembershipActive({ ...m, periodEnd: null }, new Date('2026-11-30T00:00:00Z'))).toBe(false);
  });
});
