// Complete Stripe objects as webhooks deliver them: every top-level field Stripe returns for the API version the
// installed `stripe` package pins (the key sets were compared with stripe/openapi's fixtures3.json during
// development; nothing of it is copied here). `satisfies` makes tsc prove that no field the pinned types require
// is missing, so a webhook test exercises the same shape a real delivery has, not a hand-picked subset.
// Values are ours. Every builder takes overrides; events are signed with stripe-node's own test-header helper.
import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { SUBSCRIPTION_REF_KEY } from '../../../src/adapters/payments/types';

/** The API version stripe-node 23 pins (events render `data` in it). */
export const PINNED_API_VERSION = '2026-10-28.endive';

const nowSeconds = () => Math.floor(Date.now() / 1000);
/** A Stripe-looking id: prefix + 24 random alphanumerics. */
export const fixtureId = (prefix: string) =>
  `${prefix}_${randomBytes(18).toString('base64url').replace(/[-_]/g, 'x').slice(0, 24)}`;

const emptyAddress = { city: null, country: null, line1: null, line2: null, postal_code: null, state: null };

/** A completed, paid Checkout Session in payment mode (override mode, amounts, ids for other cases). */
export function checkoutSessionFixture(overrides: Partial<Stripe.Checkout.Session> = {}): Stripe.Checkout.Session {
  const id = overrides.id ?? fixtureId('cs_test');
  const created = overrides.created ?? nowSeconds() - 120;
  const session = {
    id,
    object: 'checkout.session',
    adaptive_pricing: { enabled: false },
    after_expiration: null,
    allow_promotion_codes: null,
    allowed_payment_method_types: null,
    amount_subtotal: 1590,
    amount_total: 1590,
    automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: null,
    cancel_url: 'https://tooldir.test/checkout/cancelled',
    client_reference_id: null,
    client_secret: null,
    collected_information: { business_name: null, individual_name: null, shipping_details: null },
    consent: null,
    consent_collection: null,
    created,
    currency: 'usd',
    currency_conversion: null,
    custom_fields: [],
    custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
    customer: fixtureId('cus'),
    customer_account: null,
    customer_creation: 'if_required',
    customer_details: {
      address: { ...emptyAddress, country: 'DE' },
      business_name: null,
      email: 'buyer@example.com',
      individual_name: null,
      name: 'Buyer Example',
      phone: null,
      tax_exempt: 'none',
      tax_ids: [],
    },
    customer_email: null,
    discounts: [],
    expires_at: created + 24 * 3600,
    integration_identifier: null,
    invoice: null,
    invoice_creation: {
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
    metadata: {},
    mode: 'payment',
    origin_context: null,
    payment_intent: fixtureId('pi'),
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
    subscription: null,
    success_url: `https://tooldir.test/checkout/success?session_id=${id}`,
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: 'hosted',
    url: null,
    wallet_options: null,
  } satisfies Stripe.Checkout.Session;
  return { ...session, ...overrides };
}

/** An active Subscription with one item of `price` (the period end sits on the item in the pinned version). */
export function subscriptionFixture(
  overrides: Partial<Stripe.Subscription> = {},
  o: { price?: string; periodEnd?: number; unitAmount?: number } = {},
): Stripe.Subscription {
  const id = overrides.id ?? fixtureId('sub');
  const created = overrides.created ?? nowSeconds() - 3600;
  const periodEnd = o.periodEnd ?? nowSeconds() + 30 * 86400;
  const customer = typeof overrides.customer === 'string' ? overrides.customer : fixtureId('cus');
  const price = {
    id: o.price ?? 'price_sponsored',
    object: 'price',
    active: true,
    billing_scheme: 'per_unit',
    created: created - 86400,
    currency: 'usd',
    custom_unit_amount: null,
    livemode: false,
    lookup_key: null,
    metadata: {},
    nickname: null,
    product: 'prod_tooldir_listing',
    recurring: { interval: 'month', interval_count: 1, meter: null, trial_period_days: null, usage_type: 'licensed' },
    tax_behavior: 'unspecified',
    tiers_mode: null,
    transform_quantity: null,
    type: 'recurring',
    unit_amount: o.unitAmount ?? 2990,
    unit_amount_decimal: Stripe.Decimal.from(o.unitAmount ?? 2990),
  } satisfies Stripe.Price;
  const item = {
    id: fixtureId('si'),
    object: 'subscription_item',
    billing_thresholds: null,
    created,
    current_period_end: periodEnd,
    current_period_start: periodEnd - 30 * 86400,
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
      currency: 'usd',
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
    subscription: id,
    tax_rates: [],
  } satisfies Stripe.SubscriptionItem;
  const subscription = {
    id,
    object: 'subscription',
    application: null,
    application_fee_percent: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: created,
    billing_cycle_anchor_config: null,
    billing_mode: { flexible: null, type: 'classic', updated_at: created },
    billing_schedules: [],
    billing_thresholds: null,
    cancel_at: null,
    cancel_at_period_end: false,
    canceled_at: null,
    cancellation_details: { comment: null, feedback: null, feedback_option: null, reason: null },
    collection_method: 'charge_automatically',
    created,
    currency: 'usd',
    customer,
    customer_account: null,
    days_until_due: null,
    default_payment_method: fixtureId('pm'),
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    ended_at: null,
    invoice_settings: {
      account_tax_ids: null,
      custom_fields: null,
      description: null,
      footer: null,
      issuer: { type: 'self' },
    },
    items: { object: 'list', data: [item], has_more: false, url: `/v1/subscription_items?subscription=${id}` },
    latest_invoice: fixtureId('in'),
    livemode: false,
    managed_payments: null,
    metadata: {},
    next_pending_invoice_item_invoice: null,
    on_behalf_of: null,
    pause_collection: null,
    payment_settings: { payment_method_options: null, payment_method_types: null, save_default_payment_method: 'off' },
    pending_invoice_item_interval: null,
    pending_setup_intent: null,
    pending_update: null,
    schedule: null,
    start_date: created,
    status: 'active',
    test_clock: null,
    transfer_data: null,
    trial_end: null,
    trial_settings: { end_behavior: { billing_cycle_anchor: null, missing_payment_method: 'create_invoice' } },
    trial_start: null,
  } satisfies Stripe.Subscription;
  return { ...subscription, ...overrides, customer };
}

/** A paid subscription Invoice of `subscriptionId` with one line of `price` ending at `periodEnd`. */
export function invoiceFixture(
  subscriptionId: string,
  overrides: Partial<Stripe.Invoice> = {},
  o: { price?: string; periodEnd?: number; amount?: number; subscriptionMetadata?: Record<string, string> } = {},
): Stripe.Invoice {
  const id = overrides.id ?? fixtureId('in');
  const periodEnd = o.periodEnd ?? nowSeconds() + 30 * 86400;
  const periodStart = periodEnd - 30 * 86400;
  const amount = o.amount ?? 2990;
  const line = {
    id: fixtureId('il'),
    object: 'line_item',
    amount,
    currency: 'usd',
    description: '1 × Sponsored listing (at $29.90 / month)',
    discount_amounts: [],
    discountable: true,
    discounts: [],
    invoice: id,
    livemode: false,
    metadata: {},
    parent: {
      type: 'subscription_item_details',
      invoice_item_details: null,
      subscription_item_details: {
        invoice_item: null,
        proration: false,
        proration_details: { credited_items: null },
        subscription: subscriptionId,
        subscription_item: fixtureId('si'),
      },
    },
    period: { end: periodEnd, start: periodStart },
    pretax_credit_amounts: [],
    pricing: {
      type: 'price_details',
      price_details: { price: o.price ?? 'price_sponsored', product: 'prod_tooldir_listing' },
      unit_amount_decimal: Stripe.Decimal.from(amount),
    },
    quantity: 1,
    quantity_decimal: Stripe.Decimal.from(1),
    subscription: subscriptionId,
    subtotal: amount,
    taxes: [],
  } satisfies Stripe.InvoiceLineItem;
  const invoice = {
    id,
    object: 'invoice',
    account_country: 'DE',
    account_name: 'tooldir',
    account_tax_ids: null,
    amount_due: amount,
    amount_overpaid: 0,
    amount_paid: amount,
    amount_remaining: 0,
    amount_shipping: 0,
    application: null,
    attempt_count: 1,
    attempted: true,
    auto_advance: false,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null, provider: null, status: null },
    automatically_finalizes_at: null,
    billing_reason: 'subscription_cycle',
    collection_method: 'charge_automatically',
    created: periodStart,
    currency: 'usd',
    custom_fields: null,
    customer: fixtureId('cus'),
    customer_account: null,
    customer_address: null,
    customer_email: 'buyer@example.com',
    customer_name: null,
    customer_phone: null,
    customer_shipping: null,
    customer_tax_exempt: 'none',
    customer_tax_ids: [],
    default_payment_method: null,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    due_date: null,
    effective_at: periodStart,
    ending_balance: 0,
    footer: null,
    from_invoice: null,
    hosted_invoice_url: `https://invoice.stripe.test/i/${id}`,
    invoice_pdf: `https://pay.stripe.test/invoice/${id}/pdf`,
    issuer: { type: 'self' },
    last_finalization_error: null,
    latest_revision: null,
    lines: { object: 'list', data: [line], has_more: false, url: `/v1/invoices/${id}/lines` },
    livemode: false,
    metadata: {},
    next_payment_attempt: null,
    number: `TOOLDIR-${randomBytes(3).toString('hex').toUpperCase()}`,
    on_behalf_of: null,
    parent: {
      type: 'subscription_details',
      quote_details: null,
      subscription_details: { metadata: o.subscriptionMetadata ?? {}, subscription: subscriptionId },
    },
    payment_settings: { default_mandate: null, payment_method_options: null, payment_method_types: null },
    period_end: periodStart,
    period_start: periodStart - 30 * 86400,
    post_payment_credit_notes_amount: 0,
    pre_payment_credit_notes_amount: 0,
    receipt_number: null,
    rendering: null,
    shipping_cost: null,
    shipping_details: null,
    starting_balance: 0,
    statement_descriptor: null,
    status: 'paid',
    status_transitions: {
      finalized_at: periodStart,
      marked_uncollectible_at: null,
      paid_at: periodStart + 60,
      voided_at: null,
    },
    subtotal: amount,
    subtotal_excluding_tax: amount,
    test_clock: null,
    total: amount,
    total_discount_amounts: [],
    total_excluding_tax: amount,
    total_pretax_credit_amounts: [],
    total_taxes: [],
    webhooks_delivered_at: periodStart + 60,
  } satisfies Stripe.Invoice;
  return { ...invoice, ...overrides };
}

/** The event types the webhook acts on, with the object each carries. */
type EventOf<T extends Stripe.Event['type']> = Extract<Stripe.Event, { type: T }>;
export type HandledEventType =
  | 'checkout.session.completed'
  | 'checkout.session.async_payment_succeeded'
  | 'checkout.session.async_payment_failed'
  | 'checkout.session.expired'
  | 'customer.subscription.created'
  | 'customer.subscription.updated'
  | 'customer.subscription.deleted'
  | 'invoice.paid'
  | 'invoice.payment_failed';

/** A snapshot event around `object`, exactly as Stripe's webhook body (a JSON string, serialised once). */
export function eventFixture<T extends HandledEventType>(
  type: T,
  object: EventOf<T>['data']['object'],
  overrides: { id?: string; created?: number } = {},
): string {
  const event = {
    id: overrides.id ?? fixtureId('evt'),
    object: 'event',
    api_version: PINNED_API_VERSION,
    created: overrides.created ?? nowSeconds(),
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: fixtureId('req'), idempotency_key: null },
    type,
  } satisfies Stripe.EventBase;
  return JSON.stringify(event);
}

/** The Stripe-Signature header for `payload`, made by stripe-node itself (as Stripe signs deliveries). */
export const signFixture = (payload: string, secret: string, timestamp = nowSeconds()): string =>
  Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });

/** Subscription metadata that marks a subscription as started by our session with `ref` (SUBSCRIPTION_REF_KEY). */
export const refMetadata = (ref: string | undefined, extra: Record<string, string> = {}): Record<string, string> =>
  ref ? { ...extra, [SUBSCRIPTION_REF_KEY]: ref } : extra;
