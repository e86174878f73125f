import type { Config } from '../config';
import type { ListingPrice } from '../adapters/payments/types';
import { dailyLimitFor } from '../accounts/memberships';
import { membershipPrices, membershipTiers, planBenefits, planPrices, type MembershipTier, type PlanKind } from './plans';
import { tierCoversPlan } from './rules';

// The plans and memberships in words, for /pricing, /submit, llms.txt and the docs: built from the plan table
// (plans.ts), the coverage rule (rules.ts) and the configured quotas (dailyLimitFor), never spelled again.

/** The plans people choose from, in price order (`pro` is another spelling of sponsored). */
export const planKinds: readonly PlanKind[] = ['basic', 'featured', 'sponsored'];

export const planTitles: Record<PlanKind, string> = { basic: 'Basic', featured: 'Featured', sponsored: 'Sponsored' };
export const membershipTitles: Record<MembershipTier, string> = { member: 'Member', memberFeature: 'Member with featured' };

/** `15.90 USD` */
export const amountText = (price: ListingPrice) => `${(price.amountCents / 100).toFixed(2)} ${price.currency.toUpperCase()}`;

/** `15.90 USD once` or `29.90 USD a month`. */
export const priceText = (price: ListingPrice) => `${amountText(price)} ${price.recurring ? 'a month' : 'once'}`;

/** The plans a tier's quota covers (rules.ts), in price order. */
export const coveredPlans = (tier: MembershipTier): PlanKind[] => planKinds.filter((plan) => tierCoversPlan(tier, plan));

/** `Basic listings` / `Basic and featured listings` */
function listingsText(plans: readonly PlanKind[]): string {
  const names = plans.map((plan, i) => (i === 0 ? planTitles[plan] : planTitles[plan].toLowerCase()));
  const joined = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0] ?? 'No';
  return `${joined} listings`;
}

/** What a membership gives: its covered plans and its quota, e.g. "Basic listings without paying per tool: 5 a day (UTC)". */
export function membershipSummary(tier: MembershipTier, limits: Config['dailyLimits']): string {
  const perDay = dailyLimitFor(tier, limits);
  return `${listingsText(coveredPlans(tier))} without paying per tool: up to ${perDay} submission${perDay === 1 ? '' : 's'} a day (the UTC day). Sponsored listings are always paid.`;
}

/** One line per plan and membership, for text surfaces (llms.txt). */
export function pricingLines(limits: Config['dailyLimits']): string[] {
  const plans = planKinds.map((plan) => {
    const b = planBenefits[plan];
    return `- ${plan}: ${priceText(planPrices[plan])}. ${b.placement} ${b.badge} ${b.link} ${b.duration}`;
  });
  const tiers = membershipTiers.map(
    (tier) => `- membership ${tier}: ${priceText(membershipPrices[tier])}. ${membershipSummary(tier, limits)}`,
  );
  return [...plans, ...tiers];
}
