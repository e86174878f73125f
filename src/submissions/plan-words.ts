import type { Config } from '../config';
import { dailyLimitFor } from '../accounts/memberships';
import { badgeLabel } from '../directory/badge';
import {
  aliasesOf,
  amountText,
  membershipPrices,
  priceText,
  membershipTiers,
  planKinds,
  planPrices,
  SPONSOR_SLOTS,
  tierCovers,
  tierDisplayNames,
  type MembershipTier,
  type PlanKind,
} from '../catalog/plans';

// The plans and memberships in words, for /pricing, /submit, llms.txt and the docs: built from the plan table
// (src/catalog/plans.ts) and the configured quotas (dailyLimitFor), never spelled again.

/** The plans people choose from, in price order (`pro` is another spelling of sponsored). */
export { planKinds };

/**
 * What each plan gets, in the words /pricing, llms.txt and the docs show: exactly what the code does today, so a
 * change of what a plan earns is a change here too. Placement: src/directory/browse.ts (newest first; the sponsored
 * slot heads the first page of the home page and of each category page, SPONSOR_SLOTS at most, newest first) and
 * src/directory/sponsor-slot.ts (held while the subscription runs; past_due until the paid period ends). Badges:
 * functions/pages/tool-list.ts `badges` and the embeddable badge's wording (src/directory/badge.ts). Link:
 * functions/pages/tool-list.ts `outboundRel` (featured and sponsored tools get a followed link, others nofollow).
 */
export interface PlanBenefits {
  /** One line under the plan's name. */
  summary: string;
  placement: string;
  badge: string;
  link: string;
  /** How long it lasts. */
  duration: string;
}

export const planBenefits: Record<PlanKind, PlanBenefits> = {
  basic: {
    summary: 'A reviewed listing in the directory.',
    placement:
      'Its own tool page once an editor approves it, a card on the home page and on its category pages (newest first), and a place in search results.',
    badge: `No badge. The embeddable "${badgeLabel({ is_feature: false })}" badge for your site.`,
    link: 'Its tool page links to your site with rel="nofollow".',
    duration: 'Paid once; listed for as long as the tool is live.',
  },
  featured: {
    summary: 'A basic listing with a Featured badge and a followed link.',
    placement:
      'Like basic: featured tools keep their place in the newest-first order and in search; they are badged, not moved up.',
    badge: `A Featured badge on its card and tool page, and the "${badgeLabel({ is_feature: true })}" variant of the embeddable badge.`,
    link: 'Its tool page links to your site without nofollow: a followed link.',
    duration: 'Paid once; featured for as long as the tool is live.',
  },
  sponsored: {
    summary: 'The sponsored slot at the top of the directory, paid monthly.',
    placement: `The sponsored slot above the list on the first page of the home page and of each of its category pages (the ${SPONSOR_SLOTS} newest sponsors are shown), and never repeated in the list below it.`,
    badge: 'A Sponsored badge on its card and tool page.',
    link: 'Its tool page links to your site without nofollow: a followed link.',
    duration:
      'While the monthly subscription is paid (after a failed renewal, until the end of the period already paid for); when it ends, the tool stays listed like a basic listing.',
  },
};

export const planTitles: Record<PlanKind, string> = { basic: 'Basic', featured: 'Featured', sponsored: 'Sponsored' };
/** The tiers' one display name (the catalogue's table), under the name the pages have used. */
export const membershipTitles: Record<MembershipTier, string> = tierDisplayNames;

/** How a price reads, from the catalogue (the CLI reads it there too). */
export { amountText, priceText };

/** The plans a tier's quota covers (the plan table), in price order. */
export const coveredPlans = (tier: MembershipTier): PlanKind[] =>
  planKinds.filter((plan) => tierCovers[tier].includes(plan));

/** `Basic listings` / `Basic and featured listings` */
function listingsText(plans: readonly PlanKind[]): string {
  const names = plans.map((plan, i) => (i === 0 ? planTitles[plan] : planTitles[plan].toLowerCase()));
  const joined = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? 'No');
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
    (tier) =>
      `- membership ${tier} (${tierDisplayNames[tier]}): ${priceText(membershipPrices[tier])}. ${membershipSummary(tier, limits)}`,
  );
  return [...plans, ...tiers];
}

/** `member covers basic submits, memberFeature also featured ones`: what each tier's quota covers, for the API's words. */
export function tierCoverageText(): string {
  return membershipTiers
    .map((tier, i) => {
      const before = i === 0 ? [] : tierCovers[membershipTiers[i - 1]!];
      const added = tierCovers[tier].filter((plan) => !before.includes(plan));
      return i === 0 ? `${tier} covers ${added.join(' and ')} submits` : `${tier} also ${added.join(' and ')} ones`;
    })
    .join(', ');
}

/** `buying memberFeature while a member is an upgrade`. */
export const upgradeText = (): string => `buying ${membershipTiers.at(-1)} while a ${membershipTiers[0]} is an upgrade`;

/** `basic | featured | sponsored (alias pro)`: the plans a submit may name, for the API's words. */
export const planChoicesText = (): string =>
  `${planKinds.join(' | ')}${planKinds
    .flatMap((kind) => aliasesOf(kind))
    .map((alias) => ` (alias ${alias})`)
    .join('')}`;
