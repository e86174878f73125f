// The local checkout's small HTML views. Every interpolation goes through hono/html, which escapes it.
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import type { CheckoutLookup } from '../../../src/payments/checkout-lookup';
import { planKind, planPrices } from '../../../src/catalog/plans';
import { describeStatus } from '../../../src/submissions/progress-words';
import { csrfField } from '../../middleware/csrf';

export type View = HtmlEscapedString | Promise<HtmlEscapedString>;

export function amountLabel(plan: Parameters<typeof planKind>[0]): string {
  const price = planPrices[planKind(plan)];
  const amount = `${(price.amountCents / 100).toFixed(2)} ${price.currency.toUpperCase()}`;
  return price.recurring ? `${amount} per month` : amount;
}

/** `rules`: the refund rule in force and the usual review time (./money-rules.ts), stated before Pay. */
export function checkoutView(
  c: Extract<CheckoutLookup, { kind: 'pending' }>,
  sessionId: string,
  token: string,
  rules: View,
): View {
  const price = planPrices[planKind(c.plan)];
  return html`<h1>Checkout</h1>
<p class="notice">Local test checkout: no money is charged. Pressing Pay sends a signed payment event to this service.</p>
<dl class="facts panel">
<dt>Tool</dt><dd>${c.name}</dd>
<dt>Website</dt><dd>${c.url}</dd>
<dt>Plan</dt><dd>${c.plan} (${price.label})</dd>
<dt>Amount</dt><dd>${amountLabel(c.plan)}</dd>
</dl>
${rules}
<form method="post" action="/checkout/${encodeURIComponent(sessionId)}/pay">
${csrfField(token)}
<button type="submit" class="primary">Pay</button>
</form>
<p><a href="/checkout/cancelled?site_id=${encodeURIComponent(c.siteId)}">Cancel</a></p>`;
}

/** Where a person follows one of their submissions (functions/pages/account/submission-page.ts; sign-in first). */
const followLink = (siteId: string) =>
  html`<p><a class="button primary" id="follow" href="/account/submissions/${siteId}">Follow your submission</a></p>`;

const statusWords = (status: string) =>
  html`<strong id="status" data-status="${status}">${describeStatus(status)}</strong>`;

export function successView(c: CheckoutLookup): View {
  if (c.kind === 'site') {
    return html`<h1>Payment received</h1>
<p>Your submission <strong>${c.name}</strong> is now ${statusWords(c.status)}.</p>
${followLink(c.siteId)}`;
  }
  if (c.state === 'refunded') {
    return html`<h1>Payment refunded</h1>
<p>Your submission <strong>${c.name}</strong> was <strong id="status" data-status="rejected">not queued</strong>, and the payment was refunded.</p>
<p>${c.stateNote ?? 'The payment was refunded.'}</p>
${followLink(c.siteId)}`;
  }
  if (c.state === 'superseded') return supersededView(c);
  return html`<h1>Payment processing</h1>
<p>Your submission <strong>${c.name}</strong> is ${statusWords('pending_payment')} until the payment is confirmed.
Reload this page in a moment.</p>
${followLink(c.siteId)}`;
}

/**
 * An unpaid submission the maker's own submission superseded (src/submissions/supersede-unpaid.ts), in words: the note
 * says whether nothing was charged or a late payment was refunded.
 */
export function supersededView(c: Extract<CheckoutLookup, { kind: 'pending' }>): View {
  return html`<h1>Listed by its maker</h1>
<p>The maker of <strong>${c.name}</strong> listed it themselves after proving they control its website's domain, so your
submission was <strong id="status" data-status="rejected">closed</strong>: the tool is not listed twice.</p>
<p id="superseded-note">${c.stateNote ?? 'Nothing was charged.'}</p>
${followLink(c.siteId)}`;
}

/** A checkout that can no longer be paid: the maker listed the tool themselves, or the link expired. */
export const closedCheckoutView = (c: Extract<CheckoutLookup, { kind: 'pending' }>): { title: string; body: View } =>
  c.state === 'superseded'
    ? { title: 'Listed by its maker', body: supersededView(c) }
    : { title: 'Checkout expired', body: expiredView(c.stateNote) };

/** The cancel page; with a well-formed site_id it leads to that submission's page (which says whether it is yours). */
/** A submission's checkout comes back with its site_id; a membership's without (its offer is on /account). */
export const cancelledView = (siteId?: string): View =>
  siteId
    ? html`<h1>Payment cancelled</h1>
<p>Nothing was charged. Your checkout link stays usable until it expires; after that, your submission's page gives a fresh one.</p>
<p><a class="button primary" id="follow" href="/account/submissions/${siteId}">Back to your submission</a></p>`
    : html`<h1>Payment cancelled</h1>
<p>Nothing was charged. You can start again from <a href="/account">your account</a> or the <a href="/pricing">pricing page</a>.</p>`;

export const membershipView = (): View => html`<h1>Thank you</h1>
<p>Your membership payment was received. The membership becomes active as soon as the payment is confirmed,
usually within a minute.</p>
<p><a href="/account">Go to your account</a> to see your membership and today's quota.</p>`;

export const expiredView = (reason?: string | null): View => html`<h1>This checkout link has expired</h1>
<p>${reason ?? 'Checkout links are valid for 24 hours.'} Submit the tool again to get a fresh link.</p>`;

export const unknownView = (): View => html`<h1>Unknown checkout link</h1>
<p>There is no open checkout for this link. It may have been replaced by a newer link: use the latest one, or submit
the tool again.</p>`;

export const forbiddenView = (): View => html`<h1>Request refused</h1>
<p>This form was not sent from the checkout page. Open the checkout link again and press Pay there.</p>`;

export const failedView = (): View => html`<h1>Payment not completed</h1>
<p>Something went wrong while confirming the payment. Nothing was charged; please try again.</p>`;
