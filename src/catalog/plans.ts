// The one plan and tier table: every plan name, alias, price, placement flag, tier, covered plan and default daily
// quota is spelled here and nowhere else (test/unit/submissions/plan-literals.test.ts fails on a copy in src/ or
// functions/). The words built from it live in src/submissions/plan-words.ts and functions/pages/membership-words.ts.

/** A listing's price as the local checkout charges it (Stripe mode charges its configured Price ids). */
export interface ListingPrice {
  amountCents: number;
  currency: string;
  recurring: boolean;
  label: string;
}

/** `15.90 USD`: how a price reads everywhere (pages, the CLI, e-mails). */
export const amountText = (price: ListingPrice) =>
  `${(price.amountCents / 100).toFixed(2)} ${price.currency.toUpperCase()}`;

/** `15.90 USD once` or `29.90 USD a month`. */
export const priceText = (price: ListingPrice) => `${amountText(price)} ${price.recurring ? 'a month' : 'once'}`;

/** The plans a listing is sold as, in price order (the payments adapters sell each under this name). */
export const planKinds = ['basic', 'featured', 'sponsored'] as const;
export type PlanKind = (typeof planKinds)[number];

/** Other spellings a caller may use, and the plan each stands for. */
export const planAliases = { pro: 'sponsored' } as const satisfies Record<string, PlanKind>;
export type PlanAlias = keyof typeof planAliases;

/** Plans as the caller may spell them. `pro` and `sponsored` are the same plan; a record keeps the caller's spelling. */
export const planNames = [...planKinds, 'pro'] as const satisfies readonly (PlanKind | PlanAlias)[];
export type PlanName = (typeof planNames)[number];

/** The plan of a new submission that names none. */
export const defaultPlan: PlanKind = 'basic';

const isAlias = (plan: PlanName): plan is PlanAlias => Object.hasOwn(planAliases, plan);

/** The plan a name stands for, for pricing and coverage. */
export const planKind = (plan: PlanName): PlanKind => (isAlias(plan) ? planAliases[plan] : plan);

/** Every spelling of the plans `pick` selects (for SQL that reads a stored spelling: `plan IN (...)`). */
export const planSpellings = (pick: (kind: PlanKind) => boolean): PlanName[] =>
  planNames.filter((name) => pick(planKind(name)));

/** The aliases of a plan (`pro` for sponsored). */
export const aliasesOf = (kind: PlanKind): PlanAlias[] =>
  (Object.keys(planAliases) as PlanAlias[]).filter((alias) => planAliases[alias] === kind);

/** Prices in cents, shown on the local checkout page; Stripe mode uses the configured Price ids. A recurring plan is a subscription. */
export const planPrices: Record<PlanKind, ListingPrice> = {
  basic: { amountCents: 1590, currency: 'usd', recurring: false, label: 'Basic listing' },
  featured: { amountCents: 1990, currency: 'usd', recurring: false, label: 'Featured listing' },
  sponsored: { amountCents: 2990, currency: 'usd', recurring: true, label: 'Sponsored listing (monthly)' },
};

/** Placement flags: a featured listing sets is_feature; a sponsored one sets is_sponsor while its subscription lives. */
export const planPlacement: Record<PlanKind, { isFeature: boolean; isSponsor: boolean }> = {
  basic: { isFeature: false, isSponsor: false },
  featured: { isFeature: true, isSponsor: false },
  sponsored: { isFeature: false, isSponsor: true },
};

export const planFlags = (plan: PlanName) => ({ ...planPlacement[planKind(plan)] });

/** Where a card was shown, for the statistics: the slot its flags earn (`standard` for the plain list). */
export const placements = ['sponsored', 'featured', 'standard'] as const;
export type Placement = (typeof placements)[number];
export const isPlacement = (value: string | undefined): value is Placement =>
  (placements as readonly (string | undefined)[]).includes(value);
export const placementOf = (card: { is_feature: boolean; is_sponsor: boolean }): Placement =>
  card.is_sponsor ? placements[0] : card.is_feature ? placements[1] : placements[2];

/** The badge words a card's flags earn (featured, sponsored), for the CLI and the account and admin pages. */
export const badgeWords = (card: { is_feature: boolean; is_sponsor: boolean }): string[] =>
  [card.is_feature ? placements[1] : '', card.is_sponsor ? placements[0] : ''].filter(Boolean);

/** The membership tiers an account can buy, lowest first (src/accounts/memberships.ts keeps an account's tier). */
export const membershipTiers = ['member', 'memberFeature'] as const;
export type MembershipTier = (typeof membershipTiers)[number];

/** An account's tier: none, or a membership tier (accounts.tier). */
export const tierNames = ['none', ...membershipTiers] as const;
export type Tier = (typeof tierNames)[number];

export const isMembershipTier = (value: string): value is MembershipTier =>
  (membershipTiers as readonly string[]).includes(value);

/**
 * The one name of each tier for people: /pricing, /account, the membership and checkout pages, the CLI and e-mails
 * say exactly this, alone ("Member", never "Member membership"); test/unit/catalog/tier-names.test.ts holds them to it.
 */
export const tierDisplayNames: Record<MembershipTier, string> = {
  member: 'Member',
  memberFeature: 'Member with featured',
};

/** The plans each tier's daily quota covers without paying per tool; sponsored is always paid. */
export const tierCovers: Record<MembershipTier, readonly PlanKind[]> = {
  member: ['basic'],
  memberFeature: ['basic', 'featured'],
};

/** Submissions a day each tier covers unless MEMBER_DAILY_LIMIT / MEMBER_FEATURE_DAILY_LIMIT say otherwise. */
export const defaultDailyLimits: Record<MembershipTier, number> = { member: 5, memberFeature: 10 };

/** The environment variable that sets each tier's daily quota (src/config.ts). */
export const dailyLimitEnv = {
  member: 'MEMBER_DAILY_LIMIT',
  memberFeature: 'MEMBER_FEATURE_DAILY_LIMIT',
} as const satisfies Record<MembershipTier, string>;

/** The higher tier of the two (the rank is the order of membershipTiers): a Price of both buys it, buying it is an upgrade. */
export const tierRank = (tier: MembershipTier): number => membershipTiers.indexOf(tier);

/**
 * Monthly membership prices, in cents: what /pricing shows and the local checkout charges. In Stripe mode the
 * configured Price ids (STRIPE_PRICE_MEMBER, STRIPE_PRICE_MEMBER_FEATURE) charge; set them to these amounts.
 */
export const membershipPrices: Record<MembershipTier, ListingPrice> = {
  member: { amountCents: 4900, currency: 'usd', recurring: true, label: tierDisplayNames.member },
  memberFeature: { amountCents: 9900, currency: 'usd', recurring: true, label: tierDisplayNames.memberFeature },
};

/** How many sponsored tools the sponsored slot shows at most (the newest ones): read by src/directory/browse.ts. */
export const SPONSOR_SLOTS = 3;
