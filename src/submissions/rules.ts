import type { Config } from '../config';
import type { PlanName } from './plans';
import { planKind } from './plans';
import type { PaymentReason } from './record-schemas';

/**
 * Submit's decision (reference 4.6 + DECISIONS.md "Memberships and quota"): queue at once, or ask for payment
 * with a reason. Pure, so every row of the rule table is unit-tested; submit.ts makes it atomic.
 */

export type Tier = 'none' | 'member' | 'memberFeature';

export interface Membership {
  tier: Tier;
  status: string;
  periodEnd: Date | null;
}

export type SubmitDecision =
  | { path: 'queue'; dailyLimit: number }
  | { path: 'payment'; reason: PaymentReason };

const ACTIVE_STATUSES = new Set(['active', 'trialing']);

/**
 * Active: a tier other than none, an active (or trialing) subscription, and a period that has not ended.
 * past_due (a renewal failed) stays active only until the end of the period already paid for, so it needs a
 * known period end (issue 3: a failed renewal keeps the membership until the period ends; payments/memberships
 * never advances the period end while past_due).
 */
export function isMembershipActive(m: Membership, now: Date): boolean {
  if (m.tier === 'none') return false;
  if (m.status === 'past_due') return m.periodEnd !== null && m.periodEnd > now;
  return ACTIVE_STATUSES.has(m.status) && (m.periodEnd === null || m.periodEnd > now);
}

/** Which plans a tier covers: member covers basic; memberFeature covers basic and featured; sponsored never. */
export function tierCoversPlan(tier: Tier, plan: PlanName): boolean {
  const kind = planKind(plan);
  if (kind === 'sponsored' || tier === 'none') return false;
  return kind === 'basic' || tier === 'memberFeature';
}

export function dailyLimitFor(tier: Tier, limits: Config['dailyLimits']): number {
  return tier === 'memberFeature' ? limits.memberFeature : tier === 'member' ? limits.member : 0;
}

export interface SubmitFacts {
  membership: Membership;
  plan: PlanName;
  usedToday: number;
  limits: Config['dailyLimits'];
  /** The caller already has an unpaid pending record for this URL. */
  hasPendingForUrl: boolean;
  now: Date;
}

/** Reason precedence: no_membership, then plan_not_covered, then quota_exceeded; payment_pending for a re-submit. */
export function decideSubmit(f: SubmitFacts): SubmitDecision {
  const dailyLimit = dailyLimitFor(f.membership.tier, f.limits);
  let reason: PaymentReason | undefined;
  if (!isMembershipActive(f.membership, f.now)) reason = 'no_membership';
  else if (!tierCoversPlan(f.membership.tier, f.plan)) reason = 'plan_not_covered';
  else if (f.usedToday >= dailyLimit) reason = 'quota_exceeded';
  if (!reason) return { path: 'queue', dailyLimit };
  return { path: 'payment', reason: f.hasPendingForUrl ? 'payment_pending' : reason };
}

/** The UTC day a quota counts against. */
export const utcDay = (now: Date): string => now.toISOString().slice(0, 10);
