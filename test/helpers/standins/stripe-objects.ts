// Builds the Stripe objects the stand-in answers with (only the fields tooldir reads, shaped like the real API).
import { randomBytes } from 'node:crypto';
import type { FormValue } from './stripe-form';

type Params = { [key: string]: FormValue };

/** A Stripe-looking id: prefix + 24 random alphanumerics. */
export function stripeId(prefix: string): string {
  return `${prefix}_${randomBytes(18).toString('base64url').replace(/[-_]/g, 'x').slice(0, 24)}`;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);
const str = (value: FormValue | undefined) => (typeof value === 'string' ? value : null);
const obj = (value: FormValue | undefined) =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {};

function amountTotal(lineItems: FormValue | undefined): number | null {
  if (!Array.isArray(lineItems)) return null;
  let total = 0;
  for (const item of lineItems) {
    const amount = str(obj(obj(item).price_data).unit_amount);
    if (amount === null) return null; // priced by a Price id: the stand-in does not know the amount
    total += Number(amount) * Number(str(obj(item).quantity) ?? '1');
  }
  return total;
}

/** A Checkout Session object for `POST /v1/checkout/sessions`. */
export function checkoutSession(params: Params, baseUrl: string): Record<string, unknown> {
  const id = stripeId('cs_test');
  const mode = str(params.mode) ?? 'payment';
  return {
    id,
    object: 'checkout.session',
    url: `${baseUrl}/checkout/${id}`,
    status: 'open',
    payment_status: 'unpaid',
    mode,
    client_reference_id: str(params.client_reference_id),
    metadata: obj(params.metadata),
    expires_at: Number(str(params.expires_at) ?? nowSeconds() + 24 * 3600),
    success_url: str(params.success_url),
    cancel_url: str(params.cancel_url),
    customer: str(params.customer),
    customer_email: str(params.customer_email),
    amount_total: amountTotal(params.line_items),
    currency: str(obj(obj(Array.isArray(params.line_items) ? params.line_items[0] : undefined).price_data).currency),
    payment_intent: null,
    subscription: null,
    created: nowSeconds(),
    livemode: false,
  };
}

/** A Refund object for `POST /v1/refunds`. */
export function refund(params: Params): Record<string, unknown> {
  return {
    id: stripeId('re'),
    object: 'refund',
    amount: str(params.amount) === null ? 0 : Number(params.amount),
    currency: 'usd',
    payment_intent: str(params.payment_intent),
    charge: str(params.charge),
    reason: str(params.reason),
    metadata: obj(params.metadata),
    status: 'succeeded',
    created: nowSeconds(),
  };
}

/** Stripe's error envelope. */
export function stripeError(type: string, message: string, extra: Record<string, string> = {}) {
  return { error: { type, message, ...extra } };
}
