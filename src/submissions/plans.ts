import type { ListingKind, ListingPrice } from '../adapters/payments/types';

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
