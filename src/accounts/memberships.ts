import type { Config } from '../config';
import { tierRank, type MembershipTier, type Tier } from '../catalog/plans';

// What a membership is and what it grants, for every reader: submit's decision (src/submissions/rules.ts), the
// account overview, the payments that change memberships (docs/decisions.md, "Memberships and quota").

export type { Tier };

export interface Membership {
  tier: Tier;
  status: string;
  periodEnd: Date | null;
}

const ACTIVE_STATUSES = new Set(['active', 'trialing']);

/**
 * Active: a tier other than none, an active (or trialing) subscription, and a period that has not ended.
 * past_due (a renewal failed) stays active only until the end of the period already paid for, so it needs a
 * known period end (docs/decisions.md, "Memberships and quota": a failed renewal keeps the membership
 * until the period ends; src/payments never advances the period end while past_due).
 */
export function isMembershipActive(m: Membership, now: Date): boolean {
  if (m.tier === 'none') return false;
  if (m.status === 'past_due') return m.periodEnd !== null && m.periodEnd > now;
  return ACTIVE_STATUSES.has(m.status) && (m.periodEnd === null || m.periodEnd > now);
}

/** How many submissions a day a tier's quota covers (0 for none). */
export function dailyLimitFor(tier: Tier, limits: Config['dailyLimits']): number {
  return tier === 'none' ? 0 : limits[tier];
}

/** When today's quota starts over: the next UTC midnight. */
export const quotaResetsAt = (now: Date): Date =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));

/**
 * What buying `tier` means for an account whose membership is `current`: a first (or renewed) membership, an
 * upgrade (member → memberFeature, a new checkout whose completion cancels the old subscription with its unused
 * time credited: src/payments/memberships.ts), or nothing to buy (the tier it has, or one its tier includes).
 */
export type MembershipChoice = 'join' | 'upgrade' | 'current' | 'included';

export function membershipChoice(current: Membership, tier: MembershipTier, now: Date): MembershipChoice {
  if (!isMembershipActive(current, now) || current.tier === 'none') return 'join';
  if (current.tier === tier) return 'current';
  return tierRank(tier) > tierRank(current.tier) ? 'upgrade' : 'included';
}
