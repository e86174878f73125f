import type { Config } from '../config';
import type { Tier } from '../submissions/rules';

type Prices = NonNullable<Config['stripe']>['prices'] | undefined;

/** How an event moves the stored period end: replace it, never move it forward, or only extend it. */
export type PeriodMode = 'set' | 'keep' | 'extend';

export interface MembershipChange {
  tier: Tier;
  status: string;
  periodEnd: Date | null;
  periodMode: PeriodMode;
}

/** The tier a subscription's Prices buy; memberFeature wins when both appear. Undefined: not a membership. */
export function tierForPrices(priceIds: readonly string[], prices: Prices): Exclude<Tier, 'none'> | undefined {
  if (prices?.memberFeature && priceIds.includes(prices.memberFeature)) return 'memberFeature';
  if (prices?.member && priceIds.includes(prices.member)) return 'member';
  return undefined;
}

const ENDED = new Set(['canceled', 'incomplete_expired']);
/** A failed renewal: the subscription already shows the next period, which is not paid for. */
const UNPAID_RENEWAL = new Set(['past_due', 'unpaid']);

/**
 * Pure mapping from a subscription state to the account's membership. A failed renewal (past_due) keeps the
 * membership until the paid period ends, so it must not advance the period end; an ended subscription leaves
 * tier none.
 */
export function membershipFromSubscription(
  s: { status: string; periodEnd?: number },
  tier: Exclude<Tier, 'none'>,
  deleted: boolean,
): MembershipChange {
  const periodEnd = s.periodEnd === undefined ? null : new Date(s.periodEnd * 1000);
  if (deleted || ENDED.has(s.status)) return { tier: 'none', status: 'canceled', periodEnd, periodMode: 'keep' };
  if (UNPAID_RENEWAL.has(s.status)) return { tier, status: s.status, periodEnd, periodMode: 'keep' };
  return { tier, status: s.status, periodEnd, periodMode: 'set' };
}

/** invoice.paid extends the paid period; invoice.payment_failed marks past_due and keeps the period end. */
export function membershipFromInvoice(
  i: { periodEnd?: number },
  tier: Exclude<Tier, 'none'>,
  paid: boolean,
): MembershipChange {
  const periodEnd = i.periodEnd === undefined ? null : new Date(i.periodEnd * 1000);
  return paid
    ? { tier, status: 'active', periodEnd, periodMode: 'extend' }
    : { tier, status: 'past_due', periodEnd, periodMode: 'keep' };
}
