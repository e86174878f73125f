import type { ListingPrice, MembershipTier, PlanKind } from '../../catalog/plans';

/** What a listing is sold as (the plan table, src/catalog/plans.ts); decides the Price (and whether the session is a subscription). */
export type ListingKind = PlanKind;

export type { ListingPrice };

export interface CheckoutRequest {
  siteId: string;
  /** The plan as the caller spelled it (src/catalog/plans.ts); recorded in the session's metadata. */
  plan: string;
  /** What that plan is sold as (planKind in src/catalog/plans.ts). */
  kind: ListingKind;
  name: string;
  url: string;
  email?: string | null;
  /** Version of the pending record: the same version never makes two Checkout Sessions. */
  version: number;
  /** Where success/cancel pages and the local checkout live (SITE_ORIGIN or the request's origin). */
  origin: string;
  /** Shown above the pay button (Stripe's custom_text.submit): the refund rule in force (docs/payments.md). */
  notice?: string;
}

/** A membership bought through Stripe: a subscription-mode session for the tier's configured Price. */
export interface MembershipCheckoutRequest {
  accountId: string;
  tier: MembershipTier;
  email: string;
  /** The account's Stripe customer, when it has one, so renewals stay on one customer. */
  customerId?: string | null;
  origin: string;
}

export interface CheckoutSession {
  sessionId: string;
  url: string;
  expiresAt: Date;
  /**
   * What the session charges, as the provider computed it at creation. Recorded with the session and compared
   * with every event about it (docs/payments.md "Only our own sessions count").
   */
  mode: 'payment' | 'subscription';
  /**
   * Before tax: Stripe Tax (STRIPE_AUTOMATIC_TAX) adds the buyer's tax at payment time, so what we compare is the
   * items' amount (amount_subtotal less discounts), and a payment may exceed it by exactly the tax Stripe reports.
   */
  amountTotal: number;
  currency: string;
  /** Created with allow_promotion_codes. */
  promotionCodes: boolean;
  /**
   * Subscription mode: the value put into the subscription's metadata under SUBSCRIPTION_REF_KEY, so events of
   * the subscription that arrive before the completed session are recognised as ours.
   */
  ref?: string;
}

/** A refund the provider made: its id, and what it gave back (smallest currency unit, lower-case ISO code). */
export interface RefundMade {
  refundId: string;
  amount: number;
  currency: string;
}

/** A paid submission rejected before it went live, to refund in full (docs/payments.md "Refund on rejection"). */
export interface FullRefundRequest {
  /** A one-time plan's payment. */
  paymentIntentId?: string;
  /** A sponsorship's subscription: cancelled at once, its latest paid invoice refunded. */
  subscriptionId?: string;
  reason: string;
  /** The same key never refunds twice, however often the job is delivered (Stripe's Idempotency-Key). */
  idempotencyKey: string;
  /** What our checkout charged (before tax), for a provider that cannot say what it refunded (the local one). */
  expected: { amount: number; currency: string };
}

/** The subscription metadata key that carries CheckoutSession.ref. */
export const SUBSCRIPTION_REF_KEY = 'tooldir_ref';

/** Makes, expires and refunds payments. Stripe in production, a local signed-event simulator otherwise. */
export interface PaymentsAdapter {
  readonly kind: 'stripe' | 'local' | 'unconfigured';
  /**
   * Origins of the provider's hosted pages a form of ours redirects to (Checkout, the Customer Portal): the
   * pages' CSP form-action must name them, or the browser stops the redirect after the POST.
   */
  readonly hostedOrigins: readonly string[];
  /** Throws ServiceError plan_unavailable (no Price for the plan) or checkout_failed (provider error). */
  createCheckout(request: CheckoutRequest): Promise<CheckoutSession>;
  /** Throws plan_unavailable when the tier has no Price (or payments are local), checkout_failed on provider errors. */
  createMembershipCheckout(request: MembershipCheckoutRequest): Promise<CheckoutSession>;
  /** Makes an old link unpayable; an already expired or completed session is not an error. */
  expireCheckout(sessionId: string): Promise<void>;
  /** Refunds a payment; idempotent on the payment intent. */
  refund(paymentIntentId: string, reason: string): Promise<void>;
  /**
   * The page where the buyer reads and downloads an invoice Stripe made (its hosted_invoice_url), for the receipt
   * mail; undefined when there is none (no invoice, local payments).
   */
  invoiceUrl(invoiceId: string): Promise<string | undefined>;
  /** Refunds a rejected submission's payment in full, once per idempotency key; answers the refund made. */
  refundInFull(request: FullRefundRequest): Promise<RefundMade>;
  /**
   * For a subscription that paid for something that cannot be applied: cancels it at once and refunds the
   * payments of its first invoice. Idempotent (an already cancelled subscription is not an error).
   */
  cancelSubscriptionAndRefund(subscriptionId: string, invoiceId: string | undefined, reason: string): Promise<void>;
  /**
   * A membership subscription replaced by a newer one (an upgrade bought through a new checkout): cancelled at
   * once with the unused time credited to the customer, so nobody pays for two memberships. Idempotent.
   */
  cancelReplacedSubscription(subscriptionId: string): Promise<void>;
  /**
   * A sponsorship whose listing was withdrawn by its owner: no renewal, the period already paid for runs out (no
   * refund, no proration). Idempotent (asking twice, or for an ended subscription, is not an error).
   */
  cancelSubscriptionAtPeriodEnd(subscriptionId: string): Promise<void>;
  /**
   * A Stripe Customer Portal session (cancel, card, invoices) for the account's customer; throws
   * plan_unavailable without Stripe (the local billing page stands in for it).
   */
  createBillingPortal(request: { customerId: string; returnUrl: string }): Promise<{ url: string }>;
}

/** Checkout links live 24 hours (Stripe's own maximum). */
export const CHECKOUT_LIFETIME_MS = 24 * 60 * 60 * 1000;
