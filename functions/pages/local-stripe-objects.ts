// The Stripe objects the local checkout sends, complete: every top-level field Stripe returns for the API version
// stripe-node pins, so the webhook handles a local payment exactly like a delivery from Stripe. `satisfies` makes
// tsc prove that no field of the pinned types is missing (test/helpers/stripe/stripe-fixtures.ts does the same for
// the tests' events). Values are local: ids carry `_local_`, amounts come from the plan table.
import Stripe from 'stripe';
import { randomToken } from '../../src/crypto';

/** A Stripe-looking local id: `prefix_local_` + 24 random alphanumerics. */
export const localId = (prefix: string) => `${prefix}_local_${randomToken(24)}`;

const noAddress = { city: null, country: null, line1: null, line2: null, postal_code: null, state: null };

/** What a completed local Checkout Session paid for and who paid. */
export interface LocalSession {
  id: string;
  mode: 'payment' | 'subscription';
  amountCents: number;
  currency: string;
  /** Seconds: when the link was made and when it would have lapsed. */
  created: number;
  expiresAt: number;
  clientReferenceId: string;
  metadata: Record<string, string>;
  email: string | null;
  customer: string | null;
  /** The customer the session was made for (Stripe leaves customer_email empty then). */
  existingCustomer: boolean;
  paymentIntent: string | null;
  subscription: string | null;
  invoice: string | null;
  successUrl: string;
  cancelUrl: string;
}

/** A Checkout Session after payment (`status: complete`, `payment_status: paid`), as checkout.session.completed carries it. */
export function completedSession(s: LocalSession): Stripe.Checkout.Session {
  const subscription = s.mode === 'subscription';
  return {
    id: s.id,
    object: 'checkout.session',
    adaptive_pricing: { enabled: false },
    after_expiration: null,
    allow_promotion_codes: null,
    allowed_payment_method_types: null,
    amount_subtotal: s.amountCents,
    amount_total: s.amountCents,
    automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: null,
    cancel_url: s.cancelUrl,
    client_reference_id: s.clientReferenceId,
    client_secret: null,
    collected_information: { business_name: null, individual_name: null, shipping_details: null },
    consent: null,
    consent_collection: null,
    created: s.created,
    currency: s.currency,
    currency_conversion: null,
    custom_fields: [],
    custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
    customer: s.customer,
    customer_account: null,
    customer_creation: subscription ? null : 'if_required',
    customer_details: {
      address: noAddress,
      business_name: null,
      email: s.email,
      individual_name: null,
      name: null,
      phone: null,
      tax_exempt: 'none',
      tax_ids: [],
    },
    customer_email: s.existingCustomer ? null : s.email,
    discounts: [],
    expires_at: s.expiresAt,
    integration_identifier: null,
    invoice: s.invoice,
    invoice_creation: subscription
      ? null
      : {
          enabled: false,
          invoice_data: {
            account_tax_ids: null,
            custom_fields: null,
            description: null,
            footer: null,
            issuer: null,
            metadata: {},
            rendering_options: null,
          },
        },
    livemode: false,
    locale: null,
    managed_payments: null,
    metadata: s.metadata,
    mode: s.mode,
    origin_context: null,
    payment_intent: s.paymentIntent,
    payment_link: null,
    payment_method_collection: 'always',
    payment_method_configuration_details: null,
    payment_method_options: { card: { request_three_d_secure: 'automatic' } },
    payment_method_types: ['card'],
    payment_status: 'paid',
    permissions: null,
    phone_number_collection: { enabled: false },
    recovered_from: null,
    saved_payment_method_options: null,
    setup_intent: null,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_options: [],
    status: 'complete',
    submit_type: null,
    subscription: s.subscription,
    success_url: s.successUrl,
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: 'hosted',
    url: null,
    wallet_options: null,
  } satisfies Stripe.Checkout.Session;
}

/** A monthly subscription with one item, as customer.subscription.* events carry it. */
export interface LocalSubscription {
  id: string;
  customer: string;
  /** The local Price (price_local_<tier>) and what it charges per month. */
  price: { id: string; product: string; amountCents: number; currency: string };
  /** Seconds. */
  created: number;
  periodStart: number;
  periodEnd: number;
  metadata: Record<string, string>;
  latestInvoice: string | null;
  /** Seconds, when the subscription was cancelled at once (customer.subscription.deleted). */
  canceledAt?: number;
}

export function subscriptionObject(s: LocalSubscription): Stripe.Subscription {
  const canceled = s.canceledAt !== undefined;
  const price = {
    id: s.price.id,
    object: 'price',
    active: true,
    billing_scheme: 'per_unit',
    created: s.created,
    currency: s.price.currency,
    custom_unit_amount: null,
    livemode: false,
    lookup_key: null,
    metadata: {},
    nickname: null,
    product: s.price.product,
    recurring: { interval: 'month', interval_count: 1, meter: null, trial_period_days: null, usage_type: 'licensed' },
    tax_behavior: 'unspecified',
    tiers_mode: null,
    transform_quantity: null,
    type: 'recurring',
    unit_amount: s.price.amountCents,
    unit_amount_decimal: Stripe.Decimal.from(s.price.amountCents),
  } satisfies Stripe.Price;
  const item = {
    id: `si_${s.id.slice(s.id.indexOf('_') + 1)}`,
    object: 'subscription_item',
    billing_thresholds: null,
    created: s.created,
    current_period_end: s.periodEnd,
    current_period_start: s.periodStart,
    current_trial: null,
    discounts: [],
    metadata: {},
    plan: {
      id: price.id,
      object: 'plan',
      active: true,
      amount: price.unit_amount,
      amount_decimal: price.unit_amount_decimal,
      billing_scheme: 'per_unit',
      created: price.created,
      currency: price.currency,
      interval: 'month',
      interval_count: 1,
      livemode: false,
      metadata: {},
      meter: null,
      nickname: null,
      product: price.product,
      tiers_mode: null,
      transform_usage: null,
      trial_period_days: null,
      usage_type: 'licensed',
    },
    price,
    quantity: 1,
    subscription: s.id,
    tax_rates: [],
  } satisfies Stripe.SubscriptionItem;
  return {
    id: s.id,
    object: 'subscription',
    application: null,
    application_fee_percent: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: s.periodStart,
    billing_cycle_anchor_config: null,
    billing_mode: { flexible: null, type: 'classic', updated_at: s.created },
    billing_schedules: [],
    billing_thresholds: null,
    cancel_at: null,
    cancel_at_period_end: false,
    canceled_at: s.canceledAt ?? null,
    cancellation_details: {
      comment: null,
      feedback: null,
      feedback_option: null,
      reason: canceled ? 'cancellation_requested' : null,
    },
    collection_method: 'charge_automatically',
    created: s.created,
    currency: s.price.currency,
    customer: s.customer,
    customer_account: null,
    days_until_due: null,
    default_payment_method: null,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    ended_at: s.canceledAt ?? null,
    invoice_settings: {
      account_tax_ids: null,
      custom_fields: null,
      description: null,
      footer: null,
      issuer: { type: 'self' },
    },
    items: { object: 'list', data: [item], has_more: false, url: `/v1/subscription_items?subscription=${s.id}` },
    latest_invoice: s.latestInvoice,
    livemode: false,
    managed_payments: null,
    metadata: s.metadata,
    next_pending_invoice_item_invoice: null,
    on_behalf_of: null,
    pause_collection: null,
    payment_settings: { payment_method_options: null, payment_method_types: null, save_default_payment_method: 'off' },
    pending_invoice_item_interval: null,
    pending_setup_intent: null,
    pending_update: null,
    schedule: null,
    start_date: s.created,
    status: canceled ? 'canceled' : 'active',
    test_clock: null,
    transfer_data: null,
    trial_end: null,
    trial_settings: { end_behavior: { billing_cycle_anchor: null, missing_payment_method: 'create_invoice' } },
    trial_start: null,
  } satisfies Stripe.Subscription;
}

/** The event types the local checkout and billing page send. */
type LocalEventType = 'checkout.session.completed' | 'customer.subscription.created' | 'customer.subscription.deleted';
type EventOf<T extends LocalEventType> = Extract<Stripe.Event, { type: T }>;

/** A snapshot event around `object`, serialised once, exactly as Stripe's webhook body. */
export function eventBody<T extends LocalEventType>(
  type: T,
  object: EventOf<T>['data']['object'],
  created: number,
): string {
  return JSON.stringify({
    id: localId('evt'),
    object: 'event',
    api_version: Stripe.API_VERSION,
    created,
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  } satisfies Stripe.EventBase);
}
