import { sql, type SQL } from 'drizzle-orm';
import type { Config } from '../config';
import type { Tier } from '../accounts/memberships';
import { isMembershipTier, membershipTiers, type MembershipTier } from '../catalog/plans';

type Prices = NonNullable<Config['stripe']>['prices'] | undefined;

/** How an event moves the stored period end: replace it, never move it forward, or only extend it. */
export type PeriodMode = 'set' | 'keep' | 'extend';

/**
 * What a subscription event says about the period already paid for. Memberships and sponsorships both follow
 * it, so a past_due sponsorship lasts exactly as long as a past_due membership would.
 */
export interface PaidPeriodChange {
  status: string;
  periodEnd: Date | null;
  periodMode: PeriodMode;
  /** The subscription is over (deleted, canceled, incomplete_expired): the tier or the sponsor slot ends. */
  ended: boolean;
}

export interface MembershipChange {
  tier: Tier;
  status: string;
  periodEnd: Date | null;
  periodMode: PeriodMode;
}

/** The tier a subscription's Prices buy; the higher tier wins when both appear. Undefined: not a membership Price. */
export function tierForPrices(priceIds: readonly string[], prices: Prices): MembershipTier | undefined {
  return [...membershipTiers].reverse().find((tier) => {
    const price = prices?.[tier];
    return price !== undefined && price !== '' && priceIds.includes(price);
  });
}

/** The tier a membership session of ours was created for (checkout_sessions.plan); the lowest for anything else. */
export const recordedTier = (plan: string): MembershipTier => (isMembershipTier(plan) ? plan : membershipTiers[0]);

const ENDED = new Set(['canceled', 'incomplete_expired']);
/** A failed renewal: the subscription already shows the next period, which is not paid for. */
const UNPAID_RENEWAL = new Set(['past_due', 'unpaid']);

/**
 * Pure mapping from a subscription state to the paid period. A failed renewal (past_due, unpaid) must not
 * advance the period end (past_due then lasts until the paid period ends; unpaid is not active at all, see
 * isMembershipActive in src/submissions/rules.ts); an ended subscription ends what it paid for.
 */
export function paidPeriodFromSubscription(
  s: { status: string; periodEnd?: number },
  { deleted }: { deleted: boolean },
): PaidPeriodChange {
  const periodEnd = s.periodEnd === undefined ? null : new Date(s.periodEnd * 1000);
  if (deleted || ENDED.has(s.status)) return { status: 'canceled', periodEnd, periodMode: 'keep', ended: true };
  if (UNPAID_RENEWAL.has(s.status)) return { status: s.status, periodEnd, periodMode: 'keep', ended: false };
  return { status: s.status, periodEnd, periodMode: 'set', ended: false };
}

/** invoice.paid extends the paid period; invoice.payment_failed marks past_due and keeps the period end. */
export function paidPeriodFromInvoice(i: { periodEnd?: number }, { paid }: { paid: boolean }): PaidPeriodChange {
  const periodEnd = i.periodEnd === undefined ? null : new Date(i.periodEnd * 1000);
  return paid
    ? { status: 'active', periodEnd, periodMode: 'extend', ended: false }
    : { status: 'past_due', periodEnd, periodMode: 'keep', ended: false };
}

/** A membership from a paid-period change: an ended subscription leaves tier none. */
export const membershipChange = (p: PaidPeriodChange, tier: Exclude<Tier, 'none'>): MembershipChange => ({
  tier: p.ended ? 'none' : tier,
  status: p.status,
  periodEnd: p.periodEnd,
  periodMode: p.periodMode,
});

/** The stored period end `column` after `change` (the SQL form of PeriodMode, for memberships and sponsorships). */
export function periodEndAfter(column: SQL, change: { periodEnd: Date | null; periodMode: PeriodMode }): SQL {
  const end = change.periodEnd?.toISOString() ?? null;
  return sql`CASE ${change.periodMode}::text
      WHEN 'keep' THEN coalesce(${column}, ${end}::timestamptz)
      WHEN 'extend' THEN greatest(${column}, ${end}::timestamptz)
      ELSE ${end}::timestamptz END`;
}
