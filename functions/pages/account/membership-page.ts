// GET /account/membership?tier= and POST /account/membership/checkout – buy or upgrade a membership through the
// same checkout as POST /api/v1/membership/checkout (src/payments/membership-checkout.ts)
import type { Context, Hono } from 'hono';
import { html } from 'hono/html';
import { actorForWebSession } from '../../../src/accounts/actor';
import { getMembershipBilling } from '../../../src/accounts/billing';
import { membershipChoice, type MembershipChoice } from '../../../src/accounts/memberships';
import type { WebSession } from '../../../src/accounts/web-sessions';
import { createMembershipCheckout } from '../../../src/payments/membership-checkout';
import { membershipTiers, type MembershipTier } from '../../../src/catalog/plans';
import { enforceRateLimit } from '../../middleware/rate-limit';
import type { AppEnv } from '../../types';
import { coveredPlansLabel, membershipPriceLabel, quotaLabel, TIER_NAMES } from '../membership-words';
import { checkSessionCsrf } from './csrf';
import { csrfField, renderPage, type Html } from './layout';
import { readForm } from './session';
import { sessionOrRedirect } from './session';
import { onceField, runOnce } from './form-once';

const parseTier = (value: string | undefined): MembershipTier | undefined => membershipTiers.find((t) => t === value);
const pagePath = (tier: MembershipTier) => `/account/membership?tier=${tier}`;

const CHOICE_NOTES: Record<MembershipChoice, (current: string) => Html> = {
  join: () =>
    html`<p>You pay on the checkout page; the membership starts as soon as the payment is confirmed and renews every month until you cancel it under "Manage billing" on your account page.</p>`,
  upgrade: (current) =>
    html`<p class="notice">You are a ${current} now. Upgrading starts this membership with a new checkout; once it is paid your current subscription is cancelled and its unused days are credited to your next invoice.</p>`,
  current: () =>
    html`<p class="notice" id="choice-note">You already have this membership. <a href="/account">Back to your account</a>.</p>`,
  included: (current) =>
    html`<p class="notice" id="choice-note">Your membership (${current}) already includes everything this one covers. <a href="/account">Back to your account</a>.</p>`,
};

function otherTiers(tier: MembershipTier | undefined): Html {
  return html`<ul>${membershipTiers
    .filter((t) => t !== tier)
    .map(
      (t) =>
        html`<li><a href="${pagePath(t)}">${TIER_NAMES[t]}</a>: ${membershipPriceLabel(t)}, ${coveredPlansLabel(t)} listings</li>`,
    )}</ul>`;
}

async function membershipPage(c: Context<AppEnv>, session: WebSession, tier: MembershipTier, status: 200 | 409 = 200) {
  const deps = c.get('deps');
  const billing = await getMembershipBilling(deps, session.accountId);
  const choice = membershipChoice(billing, tier, deps.now());
  const buyable = choice === 'join' || choice === 'upgrade';
  return renderPage(c, {
    title: choice === 'upgrade' ? `Upgrade to ${TIER_NAMES[tier]}` : `Join as ${TIER_NAMES[tier]}`,
    status,
    signedIn: { email: session.email, csrfToken: session.csrfToken },
    narrow: true,
    // Stripe mode: the checkout POST redirects to Stripe's hosted Checkout.
    formActionOrigins: [...deps.payments.hostedOrigins],
    body: html`<dl class="facts panel" id="offer">
<dt>Membership</dt><dd id="tier-name">${TIER_NAMES[tier]}</dd>
<dt>Price</dt><dd id="price">${membershipPriceLabel(tier)}</dd>
<dt>Quota</dt><dd id="tier-quota">${quotaLabel(tier, deps.config.dailyLimits)}</dd>
<dt>Covers</dt><dd>${coveredPlansLabel(tier)} listings without paying per tool</dd>
</dl>
${CHOICE_NOTES[choice](TIER_NAMES[billing.tier])}
${
  buyable
    ? html`<form method="post" action="/account/membership/checkout">${csrfField(session.csrfToken)}${onceField()}<input type="hidden" name="tier" value="${tier}">
<button type="submit" class="primary">Continue to payment</button></form>`
    : ''
}
<h2>Other memberships</h2>
${otherTiers(tier)}`,
  });
}

/** An unknown or missing tier: a 400 page that names the ones there are. */
function unknownTierPage(c: Context<AppEnv>, session: WebSession, given: string | undefined) {
  return renderPage(c, {
    title: 'Choose a membership',
    status: 400,
    signedIn: { email: session.email, csrfToken: session.csrfToken },
    narrow: true,
    body: html`<p class="error" role="alert">${given ? `There is no membership called “${given.slice(0, 40)}”.` : 'No membership was chosen.'} Choose one of these:</p>
${otherTiers(undefined)}`,
  });
}

export function register(app: Hono<AppEnv>) {
  app.get('/membership', async (c) => {
    const given = c.req.query('tier');
    const tier = parseTier(given);
    const session = await sessionOrRedirect(c, tier ? pagePath(tier) : '/account');
    if (session instanceof Response) return session;
    return tier ? membershipPage(c, session, tier) : unknownTierPage(c, session, given);
  });

  app.post('/membership/checkout', async (c) => {
    const form = await readForm(c);
    const tier = parseTier(form.tier);
    const session = await sessionOrRedirect(c, tier ? pagePath(tier) : '/account');
    if (session instanceof Response) return session;
    await checkSessionCsrf(c, form, session.csrfToken);
    if (!tier) return unknownTierPage(c, session, form.tier);
    const deps = c.get('deps');
    // The same per-account bucket as the API's membership checkout: each one creates a provider session.
    await enforceRateLimit(c, 'membershipCheckout', session.accountId);
    const billing = await getMembershipBilling(deps, session.accountId);
    const choice = membershipChoice(billing, tier, deps.now());
    if (choice === 'current' || choice === 'included') return membershipPage(c, session, tier, 409);
    // A double click or a reload leads to the same checkout link, never a second session.
    const checkout = await runOnce(c, session.accountId, form, 'membership_checkout', { tier }, () =>
      createMembershipCheckout({ deps, actor: actorForWebSession(session), input: { tier } }),
    );
    return c.redirect(checkout.checkout_url, 303);
  });
}
