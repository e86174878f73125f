// The parameters of a Stripe Checkout Session and what we record of one Stripe made (./stripe.ts creates them):
// its idempotency key, its subscription reference, tax collection, and the recorded link and amount.
import type Stripe from 'stripe';
import type { Config } from '../../config';
import { sha256Hex } from '../../crypto';
import type { CheckoutRequest, CheckoutSession } from './types';

export type StripeConfig = NonNullable<Config['stripe']>;

/**
 * One Checkout Session per (pending record, version, parameters): a retried request reuses its session,
 * while two concurrent re-submits with different plans or e-mails never collide on one key.
 */
export async function checkoutIdempotencyKey(request: CheckoutRequest): Promise<string> {
  const { plan, name, url, email } = request;
  const digest = (await sha256Hex(JSON.stringify([plan, name, url, email ?? null]))).slice(0, 16);
  return `checkout-${request.siteId}-v${request.version}-${digest}`;
}

/**
 * The subscription metadata reference of the session made under `idempotencyKey`: derived from it (so a retried
 * request sends identical parameters and gets the same session back) and keyed with the secret key, so nobody
 * without it can predict one.
 */
export const subscriptionRef = async (config: StripeConfig, idempotencyKey: string) =>
  (await sha256Hex(`${config.secretKey}\n${idempotencyKey}`)).slice(0, 32);

/**
 * What we record of a session Stripe created: its link and exactly what it charges before tax (the items less
 * discounts; Stripe Tax adds the buyer's tax only once the address is known, docs/payments.md "Tax").
 */
export function recorded(session: Stripe.Checkout.Session, ref: string | undefined): CheckoutSession {
  if (!session.url) throw new Error('Checkout Session without url');
  const mode = session.mode === 'payment' ? 'payment' : session.mode === 'subscription' ? 'subscription' : undefined;
  const beforeTax =
    session.amount_subtotal === null
      ? session.amount_total
      : session.amount_subtotal - (session.total_details?.amount_discount ?? 0);
  if (!mode || beforeTax === null || !session.currency) {
    throw new Error(`Checkout Session ${session.id} without a mode, amount or currency to record`);
  }
  return {
    sessionId: session.id,
    url: session.url,
    expiresAt: new Date(session.expires_at * 1000),
    mode,
    amountTotal: beforeTax,
    currency: session.currency,
    promotionCodes: session.allow_promotion_codes === true,
    ...(ref && { ref }),
  };
}

/**
 * Tax collection on a session, each part only where configured (docs/payments.md "Tax"): Stripe Tax computes the
 * tax, business buyers may enter a tax ID, a one-time payment gets an invoice (invoice_creation exists only in
 * payment mode; a subscription invoices anyway). With an existing customer, Stripe requires customer_update so
 * Checkout may save the address tax is computed from and the business name that goes with a tax ID.
 */
export function taxParams(
  tax: StripeConfig['tax'],
  mode: 'payment' | 'subscription',
  customer: string | undefined,
): Pick<
  Stripe.Checkout.SessionCreateParams,
  'automatic_tax' | 'tax_id_collection' | 'invoice_creation' | 'customer_update'
> {
  const update: Stripe.Checkout.SessionCreateParams.CustomerUpdate = {
    ...(tax.automatic && { address: 'auto' }),
    ...(tax.idCollection && { name: 'auto' }),
  };
  return {
    ...(tax.automatic && { automatic_tax: { enabled: true } }),
    ...(tax.idCollection && { tax_id_collection: { enabled: true } }),
    ...(tax.invoiceCreation && mode === 'payment' && { invoice_creation: { enabled: true } }),
    ...(customer && Object.keys(update).length > 0 && { customer_update: update }),
  };
}
