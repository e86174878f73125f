import type { Config } from '../config';
import type { PlanName } from '../catalog/plans';
import { planKind, tierCovers } from '../catalog/plans';
import type { PaymentReason } from './record-schemas';
import { dailyLimitFor, isMembershipActive, type Membership, type Tier } from '../accounts/memberships';

/**
 * Submit's decision (reference 4.6 + DECISIONS.md "Memberships and quota"): queue at once, or ask for payment
 * with a reason. Pure, so every row of the rule table is unit-tested; submit.ts makes it atomic.
 */

export type SubmitDecision = { path: 'queue'; dailyLimit: number } | { path: 'payment'; reason: PaymentReason };

/** Which plans a tier covers: the plan table's tierCovers (tier none covers none). */
export function tierCoversPlan(tier: Tier, plan: PlanName): boolean {
  return tier !== 'none' && tierCovers[tier].includes(planKind(plan));
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
