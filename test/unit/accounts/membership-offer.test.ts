// Pure rules of the membership pages: what buying a tier means for an account, when the daily quota renews and
// how the pages say it, and the period a local subscription starts with.
import { describe, expect, it } from 'vitest';
import { membershipChoice, quotaResetsAt, type Membership } from '../../../src/accounts/memberships';
import {
  coveredPlansLabel,
  membershipPriceLabel,
  quotaLabel,
  quotaReset,
} from '../../../functions/pages/membership-words';
import { oneMonthLater } from '../../../functions/pages/local-checkout-event';

const NOW = new Date('2026-11-21T19:30:00.000Z');
const m = (tier: Membership['tier'], status = 'active', periodEnd: Date | null = null): Membership => ({
  tier,
  status,
  periodEnd,
});

describe('membershipChoice', () => {
  it.each([
    ['no membership', m('none', 'none'), 'member', 'join'],
    ['no membership', m('none', 'none'), 'memberFeature', 'join'],
    ['an ended member', m('member', 'canceled'), 'member', 'join'],
    [
      'a past_due member past the paid period',
      m('member', 'past_due', new Date('2026-11-01T00:00:00Z')),
      'memberFeature',
      'join',
    ],
    ['a member', m('member'), 'member', 'current'],
    ['a member', m('member'), 'memberFeature', 'upgrade'],
    [
      'a past_due member within the paid period',
      m('member', 'past_due', new Date('2026-12-01T00:00:00Z')),
      'memberFeature',
      'upgrade',
    ],
    ['a memberFeature member', m('memberFeature'), 'memberFeature', 'current'],
    ['a memberFeature member', m('memberFeature'), 'member', 'included'],
  ] as const)('%s buying %s: %s', (_who, current, tier, choice) => {
    expect(membershipChoice(current, tier, NOW)).toBe(choice);
  });
});

describe('the daily quota renews at the next midnight UTC', () => {
  it.each([
    ['2026-11-21T19:30:00.000Z', '2026-11-22T00:00:00.000Z', 'in 5 hours'],
    ['2026-11-21T00:00:00.000Z', '2026-11-22T00:00:00.000Z', 'in 24 hours'],
    ['2026-11-21T23:00:00.000Z', '2026-11-22T00:00:00.000Z', 'in 1 hour'],
    ['2026-11-21T23:20:00.000Z', '2026-11-22T00:00:00.000Z', 'in 40 minutes'],
    ['2026-11-21T23:59:30.000Z', '2026-11-22T00:00:00.000Z', 'in 1 minute'],
    ['2026-12-31T22:00:00.000Z', '2027-01-01T00:00:00.000Z', 'in 2 hours'],
    ['2028-02-28T12:00:00.000Z', '2028-02-29T00:00:00.000Z', 'in 12 hours'],
  ])('at %s: %s, %s', (now, at, words) => {
    expect(quotaResetsAt(new Date(now)).toISOString()).toBe(at);
    expect(quotaReset(new Date(now))).toEqual({ at: new Date(at), inWords: words });
  });
});

describe('membership words come from the plan table and the coverage rule', () => {
  it('names prices, covered plans and quotas', () => {
    expect(membershipPriceLabel('member')).toBe('49.00 USD per month');
    expect(membershipPriceLabel('memberFeature')).toBe('99.00 USD per month');
    expect(coveredPlansLabel('member')).toBe('basic');
    expect(coveredPlansLabel('memberFeature')).toBe('basic and featured');
    expect(quotaLabel('member', { member: 5, memberFeature: 10 })).toBe('5 submissions per UTC day');
    expect(quotaLabel('memberFeature', { member: 1, memberFeature: 1 })).toBe('1 submission per UTC day');
  });
});

describe('oneMonthLater (a local subscription period, like Stripe’s monthly anchor)', () => {
  it.each([
    ['2026-11-21T19:30:05.000Z', '2026-12-21T19:30:05.000Z'],
    ['2026-12-15T08:00:00.000Z', '2027-01-15T08:00:00.000Z'],
    ['2027-01-31T10:00:00.000Z', '2027-02-28T10:00:00.000Z'],
    ['2028-01-31T10:00:00.000Z', '2028-02-29T10:00:00.000Z'],
    ['2026-03-31T00:00:00.000Z', '2026-04-30T00:00:00.000Z'],
  ])('%s → %s', (from, to) => {
    expect(oneMonthLater(new Date(from)).toISOString()).toBe(to);
  });
});
