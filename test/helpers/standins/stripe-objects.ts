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

/** A Price the stand-in knows: what a session on it charges. */
export interface StandInPrice {
  unitAmount: number;
  currency: string;
}

/** The Prices the suites configure (STRIPE_PRICE_*), with the plans' amounts; a stand-in may add more. */
export const DEFAULT_PRICES: Readonly<Record<string, StandInPrice>> = Object.fromEntries(
  Object.entries({ basic: 1590, featured: 1990, sponsored: 2990, member: 990, member_feature: 1990, mf: 1990 }).flatMap(
    ([name, unitAmount]) => [
      [`price_${name}`, { unitAmount, currency: 'usd' }],
      [`price_test_${name}`, { unitAmount, currency: 'usd' }],
    ],
  ),
);

/** Sums the line items as Stripe does; a Price id it does not know makes the request fail like Stripe's. */
export function lineItemsTotal(
  lineItems: FormValue | undefined,
  prices: Readonly<Record<string, StandInPrice>>,
): { amount: number; currency: string } | { unknownPrice: string } | null {
  if (!Array.isArray(lineItems)) return null;
  let amount = 0;
  let currency = 'usd';
  for (const item of lineItems) {
    const quantity = Number(str(obj(item).quantity) ?? '1');
    const inline = obj(obj(item).price_data);
    const priceId = str(obj(item).price);
    if (priceId) {
      const price = prices[priceId];
      if (!price) return { unknownPrice: priceId };
      amount += price.unitAmount * quantity;
      currency = price.currency;
    } else {
      amount += Number(str(inline.unit_amount) ?? '0') * quantity;
      currency = str(inline.currency) ?? currency;
    }
  }
  return { amount, currency };
}

const enabled = (value: FormValue | undefined) => str(obj(value).enabled) === 'true';

/**
 * Stripe's refusals of tax parameters a session cannot have (their wording as Stripe's API words them), or null.
 * The stand-in's customers carry no address or name, as a customer created by Checkout has none until it pays.
 */
export function taxParamsRefusal(params: Params): { message: string; param: string } | null {
  const mode = str(params.mode) ?? 'payment';
  const customer = str(params.customer);
  const update = obj(params.customer_update);
  if (params.invoice_creation !== undefined && mode !== 'payment') {
    return { message: 'You can only set `invoice_creation` when `mode` is `payment`.', param: 'invoice_creation' };
  }
  if (params.customer_update !== undefined && !customer) {
    return { message: '`customer_update` can only be used with `customer`.', param: 'customer_update' };
  }
  if (enabled(params.automatic_tax) && customer && str(update.address) !== 'auto' && str(update.shipping) !== 'auto') {
    return {
      message:
        "Automatic tax calculation in Checkout requires a valid address on the Customer. Add a valid address to the Customer or set either `customer_update[address]` or `customer_update[shipping]` to 'auto' to save the address entered in Checkout to the Customer.",
      param: 'automatic_tax[enabled]',
    };
  }
  if (enabled(params.tax_id_collection) && customer && str(update.name) !== 'auto') {
    return {
      message:
        'To collect tax IDs for an existing customer, `customer_update[name]` must be set to `auto` so the business name entered in Checkout is saved.',
      param: 'tax_id_collection[enabled]',
    };
  }
  return null;
}

/** A Checkout Session object for `POST /v1/checkout/sessions`, charging `total` (before tax: no address yet). */
export function checkoutSession(
  params: Params,
  baseUrl: string,
  total: { amount: number; currency: string } | null,
): Record<string, unknown> {
  const id = stripeId('cs_test');
  const mode = str(params.mode) ?? 'payment';
  const automaticTax = enabled(params.automatic_tax);
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
    allow_promotion_codes: str(params.allow_promotion_codes) === 'true' ? true : null,
    amount_subtotal: total?.amount ?? null,
    amount_total: total?.amount ?? null,
    currency: total?.currency ?? null,
    automatic_tax: {
      enabled: automaticTax,
      liability: null,
      provider: automaticTax ? 'stripe' : null,
      status: automaticTax ? 'requires_location_inputs' : null,
    },
    tax_id_collection: { enabled: enabled(params.tax_id_collection), required: 'never' },
    invoice_creation:
      mode === 'payment' ? { enabled: enabled(params.invoice_creation), invoice_data: { metadata: {} } } : null,
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    payment_intent: null,
    subscription: null,
    created: nowSeconds(),
    livemode: false,
  };
}

/** A Customer Portal session for `POST /v1/billing_portal/sessions`. */
export function billingPortalSession(params: Params, baseUrl: string): Record<string, unknown> {
  const id = stripeId('bps');
  return {
    id,
    object: 'billing_portal.session',
    configuration: 'bpc_standin_default',
    created: nowSeconds(),
    customer: str(params.customer),
    customer_account: null,
    flow: null,
    livemode: false,
    locale: null,
    on_behalf_of: null,
    return_url: str(params.return_url),
    url: `${baseUrl}/p/session/${id}`,
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
