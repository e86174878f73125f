// The local checkout of a membership (GET /checkout/{id}, POST /checkout/{id}/pay for a membership session of
// ours): Pay sends what Stripe sends for a paid subscription checkout, signed, to the real webhook entry.
import type { Context } from 'hono';
import { html } from 'hono/html';
import { isMembershipPayable, type MembershipCheckoutLookup } from '../../../src/payments/membership-checkout-lookup';
import { membershipPrices } from '../../../src/catalog/plans';
import { receiveStripeEvent } from '../../stripe/webhook';
import type { AppEnv } from '../../types';
import { checkoutFormToken } from './form-token';
import type { View } from './views';
import { localMembershipEvents, signLikeStripe } from './local-stripe-events';
import { membershipPriceLabel, TIER_NAMES } from '../membership-words';
import { csrfField } from '../../middleware/csrf';

type Page = (
  c: Context<AppEnv>,
  title: string,
  body: View,
  status?: 200 | 404 | 410 | 502,
) => Response | Promise<Response>;

const expiredView = (): View => html`<h1>This checkout link has expired</h1>
<p>Checkout links are valid for 24 hours. Start again from <a href="/account">your account</a>.</p>`;

const failedView = (): View => html`<h1>Payment not completed</h1>
<p>Something went wrong while confirming the payment. Nothing was charged; please try again from <a href="/account">your account</a>.</p>`;

function checkoutView(m: MembershipCheckoutLookup, sessionId: string, token: string): View {
  return html`<h1>Checkout</h1>
<p class="notice">Local test checkout: no money is charged. Pressing Pay sends the signed payment events of a subscription to this service.</p>
<dl class="facts panel">
<dt>Membership</dt><dd id="tier-name">${TIER_NAMES[m.tier]}</dd>
<dt>Account</dt><dd>${m.email}</dd>
<dt>Amount</dt><dd>${membershipPriceLabel(m.tier)}</dd>
</dl>
<form method="post" action="/checkout/${encodeURIComponent(sessionId)}/pay">
${csrfField(token)}
<button type="submit" class="primary">Pay</button>
</form>
<p><a href="/checkout/cancelled">Cancel</a></p>`;
}

/** GET /checkout/{id} of a membership session: the Pay form while payable; paid ones lead to the thank-you page. */
export async function membershipCheckoutPage(
  c: Context<AppEnv>,
  page: Page,
  m: MembershipCheckoutLookup,
  sessionId: string,
) {
  const deps = c.get('deps');
  if (m.subscriptionId) return c.redirect('/checkout/membership', 303);
  if (!isMembershipPayable(m, deps.now())) return page(c, 'Checkout expired', expiredView(), 410);
  const token = await checkoutFormToken(deps.config.stripeWebhookSecret ?? '', sessionId);
  return page(c, 'Checkout', checkoutView(m, sessionId, token));
}

/**
 * POST /checkout/{id}/pay of a membership session (form token and origin already checked): the completed session
 * and the subscription it started, each signed and handed to the webhook's own entry (signature verification
 * included), then the thank-you page Stripe also returns to. A paid session is not paid twice.
 */
export async function payMembership(c: Context<AppEnv>, page: Page, m: MembershipCheckoutLookup, sessionId: string) {
  const deps = c.get('deps');
  if (m.subscriptionId) return c.redirect('/checkout/membership', 303);
  if (!isMembershipPayable(m, deps.now())) return page(c, 'Checkout expired', expiredView(), 410);
  const now = deps.now();
  const secret = deps.config.stripeWebhookSecret ?? '';
  try {
    for (const payload of localMembershipEvents(m, sessionId, now, deps.origin)) {
      await receiveStripeEvent(deps, payload, await signLikeStripe(payload, secret, now));
    }
  } catch (error) {
    deps.log.error('local checkout could not deliver its membership events', { err: String(error) });
    return page(c, 'Payment failed', failedView(), 502);
  }
  // A membership changes no submission's status: nothing for webhook endpoints.
  c.set('announceStatusChanges', false);
  return c.redirect('/checkout/membership', 303);
}
