import type { ListingKind, ListingPrice } from '../adapters/payments/types';
import { badgeLabel } from '../directory/badge';

/** Plans as the caller may spell them. `pro` and `sponsored` are the same plan; a record keeps the caller's spelling. */
export const planNames = ['basic', 'featured', 'sponsored', 'pro'] as const;
export type PlanName = (typeof planNames)[number];

/** The plan a name stands for, for pricing and coverage (the payments adapters sell it under this name). */
export type PlanKind = ListingKind;

export const planKind = (plan: PlanName): PlanKind => (plan === 'pro' ? 'sponsored' : plan);

/** Prices in cents, shown on the local checkout page; Stripe mode uses the configured Price ids. */
export const planPrices: Record<PlanKind, ListingPrice> = {
  basic: { amountCents: 1590, currency: 'usd', recurring: false, label: 'Basic listing' },
  featured: { amountCents: 1990, currency: 'usd', recurring: false, label: 'Featured listing' },
  sponsored: { amountCents: 2990, currency: 'usd', recurring: true, label: 'Sponsored listing (monthly)' },
};

/** A featured listing sets is_feature; a sponsored one sets is_sponsor while its subscription lives. */
export const planFlags = (plan: PlanName) => ({
  isFeature: planKind(plan) === 'featured',
  isSponsor: planKind(plan) === 'sponsored',
});

/** The membership tiers an account can buy (src/accounts/memberships.ts keeps an account's tier). */
export const membershipTiers = ['member', 'memberFeature'] as const;
export type MembershipTier = (typeof membershipTiers)[number];

/**
 * Monthly membership prices, in cents: what /pricing shows and the local checkout charges. In Stripe mode the
 * configured Price ids (STRIPE_PRICE_MEMBER, STRIPE_PRICE_MEMBER_FEATURE) charge; set them to these amounts.
 */
export const membershipPrices: Record<MembershipTier, ListingPrice> = {
  member: { amountCents: 4900, currency: 'usd', recurring: true, label: 'Membership (monthly)' },
  memberFeature: { amountCents: 9900, currency: 'usd', recurring: true, label: 'Membership with featured listings (monthly)' },
};

/** How many sponsored tools the sponsored slot shows at most (the newest ones): read by src/directory/browse.ts. */
export const SPONSOR_SLOTS = 3;

/**
 * What each plan gets, in the words /pricing, llms.txt and the docs show: exactly what the code does today, so a
 * change of what a plan earns is a change here too. Placement: src/directory/browse.ts (newest first; the sponsored
 * slot heads the first page of the home page and of each category page, SPONSOR_SLOTS at most, newest first) and
 * src/submissions/sponsor-slot.ts (held while the subscription runs; past_due until the paid period ends). Badges:
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
    placement: 'Like basic: featured tools keep their place in the newest-first order and in search; they are badged, not moved up.',
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
