import { SUBSCRIPTION_REF_KEY } from '../adapters/payments/types';

/**
 * The few fields of Stripe objects the handlers read, typed narrowly so a handler never trusts the wire
 * format blindly (`id()`/`num()` turn absent or expanded fields into plain values).
 */
export interface StripeEventEnvelope {
  id: string;
  type: string;
  /** Seconds since the epoch when Stripe created the event: the clock for ordering, never arrival. */
  created: number;
  data: { object: Record<string, unknown> };
}

/** An id that may arrive as a string or as an expanded object `{ id }`. */
export function idOf(value: unknown): string | undefined {
  if (typeof value === 'string' && value) return value;
  if (value && typeof value === 'object' && typeof (value as { id?: unknown }).id === 'string')
    return (value as { id: string }).id;
  return undefined;
}

export const str = (value: unknown): string | undefined => (typeof value === 'string' && value ? value : undefined);
export const num = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;
export const record = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
export const list = (value: unknown): Record<string, unknown>[] => {
  const data = record(value).data;
  return Array.isArray(data) ? data.map(record) : [];
};

/** The fields of a Checkout Session the handlers use. */
export interface CheckoutSessionView {
  sessionId: string;
  /** As sent (compared with our record of the session, so a missing one is not guessed). */
  mode?: string;
  paymentStatus: string;
  amountTotal?: number;
  /** total_details.amount_tax (Stripe Tax), compared with our before-tax amount. */
  amountTax?: number;
  currency?: string;
  clientReferenceId?: string;
  paymentIntentId?: string;
  subscriptionId?: string;
  customerId?: string;
  invoiceId?: string;
}

/** Its metadata is deliberately not read: what a session bought comes from our record of it. */
export function checkoutSessionView(object: Record<string, unknown>): CheckoutSessionView {
  return {
    sessionId: str(object.id) ?? '',
    mode: str(object.mode),
    paymentStatus: str(object.payment_status) ?? 'unpaid',
    amountTotal: num(object.amount_total),
    amountTax: num(record(object.total_details).amount_tax),
    currency: str(object.currency),
    clientReferenceId: str(object.client_reference_id),
    paymentIntentId: idOf(object.payment_intent),
    subscriptionId: idOf(object.subscription),
    customerId: idOf(object.customer),
    invoiceId: idOf(object.invoice),
  };
}

/** The fields of a Subscription the handlers use (period end moved onto the items in newer API versions). */
export interface SubscriptionView {
  subscriptionId: string;
  status: string;
  customerId?: string;
  priceIds: string[];
  periodEnd?: number;
  /** Our reference from the subscription's metadata (SUBSCRIPTION_REF_KEY), if it carries one. */
  ref?: string;
}

export function subscriptionView(object: Record<string, unknown>): SubscriptionView {
  const items = list(object.items);
  const itemEnds = items.map((i) => num(i.current_period_end)).filter((n): n is number => n !== undefined);
  const metadata = record(object.metadata);
  return {
    subscriptionId: str(object.id) ?? '',
    status: str(object.status) ?? 'incomplete',
    customerId: idOf(object.customer),
    priceIds: items.map((i) => idOf(i.price)).filter((p): p is string => Boolean(p)),
    periodEnd: num(object.current_period_end) ?? (itemEnds.length ? Math.max(...itemEnds) : undefined),
    ref: str(metadata[SUBSCRIPTION_REF_KEY]),
  };
}

/** The fields of an Invoice the handlers use, across the old (`invoice.subscription`) and new (`parent`) shapes. */
export interface InvoiceView {
  invoiceId: string;
  customerId?: string;
  subscriptionId?: string;
  priceIds: string[];
  periodEnd?: number;
  /** Our reference from the subscription's metadata as copied onto the invoice, if any. */
  ref?: string;
}

export function invoiceView(object: Record<string, unknown>): InvoiceView {
  const details = record(record(object.parent).subscription_details);
  const lines = list(object.lines);
  const priceIds = lines
    .map((l) => idOf(record(record(l.pricing).price_details).price) ?? idOf(l.price))
    .filter((p): p is string => Boolean(p));
  const ends = lines.map((l) => num(record(l.period).end)).filter((n): n is number => n !== undefined);
  return {
    invoiceId: str(object.id) ?? '',
    customerId: idOf(object.customer),
    subscriptionId: idOf(details.subscription) ?? idOf(object.subscription),
    priceIds,
    periodEnd: ends.length ? Math.max(...ends) : undefined,
    ref: str(record(details.metadata)[SUBSCRIPTION_REF_KEY]),
  };
}
