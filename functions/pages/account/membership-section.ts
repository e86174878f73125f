// The membership part of /account: tier, today's quota and when it renews, "Become a member" / upgrade, and
// "Manage billing" (Stripe's Customer Portal, or the local billing page) for an account with a billing customer.
import { html } from 'hono/html';
import type { AccountOverview } from '../../../src/submissions/account-overview';
import type { MembershipBilling } from '../../../src/accounts/billing';
import type { Config } from '../../../src/config';
import { defaultPlan, membershipTiers, planPrices, tierRank, type MembershipTier } from '../../../src/catalog/plans';
import { priceText } from '../../../src/submissions/plan-words';
import { coveredPlansLabel, membershipPriceLabel, quotaLabel, quotaReset, TIER_NAMES } from '../membership-words';
import { csrfField, formatTime, type Html } from './layout';

/** What a tier offers, in one line: its price, daily quota and the plans it covers. */
const offerLine = (tier: MembershipTier, limits: Config['dailyLimits']) =>
  html`<li><strong>${TIER_NAMES[tier]}</strong>: ${membershipPriceLabel(tier)}, ${quotaLabel(tier, limits)} of ${coveredPlansLabel(tier)} listings</li>`;

/** The offers for an account: both tiers without an active membership, the upgrade for a member, none above. */
function offers(o: AccountOverview, limits: Config['dailyLimits']): Html {
  if (!o.membership_active) {
    const [first, ...higher] = membershipTiers;
    return html`<p>Members submit without paying per tool:</p>
<ul>${membershipTiers.map((tier) => offerLine(tier, limits))}</ul>
<p class="actions"><a class="button primary" href="/account/membership?tier=${first}">Become a member</a>
${higher.map((tier) => html`<a class="button" href="/account/membership?tier=${tier}">${TIER_NAMES[tier]}</a>`)}</p>`;
  }
  const current = o.account.tier;
  const upgrades = current === 'none' ? [] : membershipTiers.filter((tier) => tierRank(tier) > tierRank(current));
  if (upgrades.length === 0) return html``;
  return html`<ul>${upgrades.map((tier) => offerLine(tier, limits))}</ul>
<p class="actions">${upgrades.map((tier) => html`<a class="button primary" href="/account/membership?tier=${tier}">Upgrade to ${TIER_NAMES[tier]}</a>`)}</p>`;
}

/** Today's quota use and when it renews (the next midnight UTC, in the site's date format and in hours). */
function quota(o: AccountOverview, now: Date): Html | '' {
  if (o.account.tier === 'none') return ''; // the words without a membership say it already
  if (!o.membership_active || o.quota.daily_limit === 0) {
    return html`<p id="quota">Without an active membership every submission is paid per tool (today: ${o.quota.used_today} used).</p>`;
  }
  const reset = quotaReset(now);
  return html`<p>Today (${o.quota.day}, UTC): <strong id="quota">${o.quota.used_today} of ${o.quota.daily_limit}</strong> submissions covered by your membership used.
<span id="quota-reset">Resets ${formatTime(reset.at)} (${reset.inWords}).</span></p>`;
}

/**
 * Without a membership: what the person can do anyway (submit and pay per tool, keep keys and webhooks, follow
 * submissions here), not an empty "tier: none".
 */
function withoutMembership(): Html {
  return html`<p id="no-membership">You have no membership. You can still submit any tool and pay for each one
(from ${priceText(planPrices[defaultPlan])}), create API keys and webhooks, and follow your submissions below.</p>`;
}

/** The section; `billing` says whether the account has a customer to manage billing for. */
export function membershipSection(
  o: AccountOverview,
  billing: MembershipBilling,
  csrfToken: string,
  now: Date,
  limits: Config['dailyLimits'],
): Html {
  const a = o.account;
  const period = a.current_period_end
    ? html` · ${o.membership_active ? 'current period ends' : 'ended'} ${formatTime(a.current_period_end)}`
    : '';
  const manage = billing.customerId
    ? html`<form class="inline" method="post" action="/account/billing">${csrfField(csrfToken)}<button type="submit">Manage billing</button></form>`
    : '';
  const standing =
    a.tier === 'none'
      ? withoutMembership()
      : html`<p>Your membership: <strong id="tier">${TIER_NAMES[a.tier]}</strong> · <span id="membership-status">${a.membership_status}</span>${period}${
          o.membership_active ? '' : html` <span class="error">not active</span>`
        }</p>`;
  return html`<section class="panel" id="membership" aria-labelledby="membership-heading">
<h2 id="membership-heading">Membership</h2>
${standing}
${billing.endsAt && o.membership_active ? html`<p id="membership-ends">Cancelled: your membership ends on <strong>${formatTime(billing.endsAt)}</strong> and is not renewed.</p>` : ''}
${quota(o, now)}
${offers(o, limits)}${manage}
</section>`;
}
