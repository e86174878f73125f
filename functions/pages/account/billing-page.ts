// POST /account/billing – "Manage billing": Stripe's Customer Portal for the account's customer (cancel, card,
// invoices). Without Stripe, GET /account/billing and POST /account/billing/cancel stand in for the portal; the
// cancel sends, signed, the customer.subscription.updated the portal's default cancel (at the end of the period)
// makes Stripe send, to the webhook: the membership stays until the period already paid for ends.
import type { Context, Hono } from 'hono';
import { html } from 'hono/html';
import { getMembershipBilling, isSubscribedMembership, type MembershipBilling } from '../../../src/accounts/billing';
import type { WebSession } from '../../../src/accounts/web-sessions';
import { ServiceError } from '../../../src/errors';
import { membershipTiers } from '../../../src/catalog/plans';
import { enforceRateLimit } from '../../middleware/rate-limit';
import { receiveStripeEvent } from '../../stripe/webhook';
import type { AppEnv } from '../../types';
import { localSubscriptionCancelAtPeriodEndEvent, signLikeStripe } from '../checkout/local-stripe-events';
import { membershipPriceLabel, TIER_NAMES } from '../membership-words';
import { checkSessionCsrf } from './csrf';
import { csrfField, formatTime, renderPage, type Html } from './layout';
import { readForm } from './session';
import { sessionOrRedirect } from './session';

/** The local stand-in exists only with local payments and a secret to sign its events with (like the local checkout). */
const isLocal = (c: Context<AppEnv>) =>
  c.get('deps').payments.kind === 'local' && Boolean(c.get('deps').config.stripeWebhookSecret);

function billingBody(b: MembershipBilling, csrfToken: string): Html {
  const facts = html`<dl class="facts panel" id="billing">
<dt>Membership</dt><dd id="billing-tier">${TIER_NAMES[b.tier]}</dd>
<dt>Status</dt><dd id="billing-status">${b.status}${b.tier !== 'none' && !b.active ? ' (not active)' : ''}</dd>
<dt>Period ends</dt><dd>${formatTime(b.periodEnd)}</dd>
${b.endsAt ? html`<dt>Ends on</dt><dd id="billing-ends">${formatTime(b.endsAt)}</dd>` : ''}
<dt>Customer</dt><dd><code>${b.customerId ?? '–'}</code></dd>
<dt>Subscription</dt><dd><code>${b.subscriptionId ?? '–'}</code></dd>
</dl>`;
  const intro = html`<p class="notice">Local billing page: without Stripe this page stands in for Stripe's Customer Portal. Cancelling
sends the signed <code>customer.subscription.updated</code> event Stripe sends when a subscription is set to cancel at
the end of its period (the portal's default) to this service's webhook.</p>`;
  if (isSubscribedMembership(b) && b.endsAt) {
    return html`${intro}${facts}
<p id="billing-note">Your ${TIER_NAMES[b.tier]} membership is cancelled: it ends on ${formatTime(b.endsAt)}, at the end of the period already paid for, and is not renewed.</p>`;
  }
  if (isSubscribedMembership(b)) {
    return html`${intro}${facts}
<h2>Cancel</h2>
<p>Your membership (${TIER_NAMES[b.tier]}, ${membershipPriceLabel(b.tier)}) ends at the end of the period already paid for${
      b.periodEnd ? html`, ${formatTime(b.periodEnd)}` : ''
    }, and is not renewed; until then it covers your submissions as now.</p>
<form method="post" action="/account/billing/cancel">${csrfField(csrfToken)}<button type="submit" class="danger">Cancel membership</button></form>`;
  }
  const why =
    b.active && b.source === 'operator'
      ? html`<p id="billing-note">Your membership was set by the operator: there is no subscription to manage.</p>`
      : html`<p id="billing-note">No active membership. ${membershipTiers.map((t, i) => html`${i ? ' or ' : ''}<a href="/account/membership?tier=${t}">${TIER_NAMES[t]}</a>`)}.</p>`;
  return html`${intro}${facts}${why}`;
}

async function localBillingPage(c: Context<AppEnv>, session: WebSession) {
  const billing = await getMembershipBilling(c.get('deps'), session.accountId);
  return renderPage(c, {
    title: 'Billing',
    signedIn: { email: session.email, csrfToken: session.csrfToken },
    narrow: true,
    body: billingBody(billing, session.csrfToken),
  });
}

const notHere = () =>
  new ServiceError('not_found', 'Billing is managed on Stripe\'s own page: use "Manage billing" on your account page.');

export function register(app: Hono<AppEnv>) {
  app.get('/billing', async (c) => {
    const session = await sessionOrRedirect(c, '/account/billing');
    if (session instanceof Response) return session;
    if (!isLocal(c)) throw notHere();
    return localBillingPage(c, session);
  });

  app.post('/billing', async (c) => {
    const session = await sessionOrRedirect(c, '/account');
    if (session instanceof Response) return session;
    await checkSessionCsrf(c, await readForm(c), session.csrfToken);
    if (isLocal(c)) return c.redirect('/account/billing', 303);
    const deps = c.get('deps');
    await enforceRateLimit(c, 'billingPortal', session.accountId);
    const billing = await getMembershipBilling(deps, session.accountId);
    if (!billing.customerId)
      throw new ServiceError(
        'not_found',
        'Your account has no billing details yet: they start with your first membership.',
      );
    const portal = await deps.payments.createBillingPortal({
      customerId: billing.customerId,
      returnUrl: `${deps.origin}/account`,
    });
    return c.redirect(portal.url, 303);
  });

  app.post('/billing/cancel', async (c) => {
    const session = await sessionOrRedirect(c, '/account/billing');
    if (session instanceof Response) return session;
    await checkSessionCsrf(c, await readForm(c), session.csrfToken);
    if (!isLocal(c)) throw notHere();
    const deps = c.get('deps');
    await enforceRateLimit(c, 'billingPortal', session.accountId);
    const billing = await getMembershipBilling(deps, session.accountId);
    if (!isSubscribedMembership(billing))
      throw new ServiceError('invalid_state', 'There is no active membership subscription to cancel.');
    // Cancelled already: a second press changes nothing (the portal shows no cancel button then either).
    if (billing.endsAt) return c.redirect('/account/billing', 303);
    const now = deps.now();
    const payload = localSubscriptionCancelAtPeriodEndEvent(billing, now);
    // The same entry Stripe's deliveries use: signature verification included. A membership changes no submission.
    await receiveStripeEvent(deps, payload, await signLikeStripe(payload, deps.config.stripeWebhookSecret ?? '', now));
    return c.redirect('/account/billing', 303);
  });
}
