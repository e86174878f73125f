// How pages name memberships, their prices, what they cover and when the daily quota renews. Every fact comes
// from the plan table (src/catalog/plans.ts), its words (src/submissions/plan-words.ts) and the quota
// configuration (src/accounts/memberships.ts); only the words live here.
import type { Config } from '../../src/config';
import { dailyLimitFor, quotaResetsAt, type Tier } from '../../src/accounts/memberships';
import { membershipPrices, tierDisplayNames, type MembershipTier } from '../../src/catalog/plans';
import { amountText, coveredPlans } from '../../src/submissions/plan-words';

/** Each tier's one name (the catalogue's table), and the words for an account without one. */
export const TIER_NAMES: Record<Tier, string> = { none: 'No membership', ...tierDisplayNames };

/** `49.00 USD per month`. */
export function membershipPriceLabel(tier: MembershipTier): string {
  return `${amountText(membershipPrices[tier])} per month`;
}

/** `basic` or `basic and featured`: the listing plans the tier's quota covers. */
export function coveredPlansLabel(tier: MembershipTier): string {
  return coveredPlans(tier).join(' and ');
}

/** `5 submissions per UTC day`. */
export function quotaLabel(tier: MembershipTier, limits: Config['dailyLimits']): string {
  const n = dailyLimitFor(tier, limits);
  return `${n} ${n === 1 ? 'submission' : 'submissions'} per UTC day`;
}

/** When today's quota renews, and how far away that is in words (`in 5 hours`, `in 40 minutes`). */
export function quotaReset(now: Date): { at: Date; inWords: string } {
  const at = quotaResetsAt(now);
  const minutes = Math.ceil((at.getTime() - now.getTime()) / 60_000);
  if (minutes < 60) return { at, inWords: `in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}` };
  const hours = Math.round(minutes / 60);
  return { at, inWords: `in ${hours} ${hours === 1 ? 'hour' : 'hours'}` };
}
