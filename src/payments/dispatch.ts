import type { Deps } from '../deps';
import type { StripeEventHandler } from './handler';
import { isEventRecorded, recordEvent } from './event-log';
import type { StripeEventEnvelope } from './stripe-event';
import { checkoutSessionCompleted } from './events/checkout-session-completed';
import { checkoutSessionAsyncPaymentSucceeded } from './events/checkout-session-async-payment-succeeded';
import { checkoutSessionAsyncPaymentFailed } from './events/checkout-session-async-payment-failed';
import { checkoutSessionExpired } from './events/checkout-session-expired';
import { customerSubscriptionCreated } from './events/customer-subscription-created';
import { customerSubscriptionUpdated } from './events/customer-subscription-updated';
import { customerSubscriptionDeleted } from './events/customer-subscription-deleted';
import { invoicePaid } from './events/invoice-paid';
import { invoicePaymentFailed } from './events/invoice-payment-failed';

/** The Stripe event types this service acts on; enable exactly these on the webhook endpoint (docs/payments.md). */
export const stripeEventHandlers: Readonly<Record<string, StripeEventHandler>> = {
  'checkout.session.completed': checkoutSessionCompleted,
  'checkout.session.async_payment_succeeded': checkoutSessionAsyncPaymentSucceeded,
  'checkout.session.async_payment_failed': checkoutSessionAsyncPaymentFailed,
  'checkout.session.expired': checkoutSessionExpired,
  'customer.subscription.created': customerSubscriptionCreated,
  'customer.subscription.updated': customerSubscriptionUpdated,
  'customer.subscription.deleted': customerSubscriptionDeleted,
  'invoice.paid': invoicePaid,
  'invoice.payment_failed': invoicePaymentFailed,
};

export interface HandledEvent {
  /** False for a verified event of a type this service does not act on (answered 200 all the same). */
  handled: boolean;
  summary: string;
}

/**
 * Applies one verified Stripe event: looks up its handler by type, skips an event id applied before, and
 * records the id with the handler's summary unless the handler's own statement recorded it (the payment
 * promotion does, so it costs the lookup plus one statement). A handler that throws leaves the id
 * unrecorded, so Stripe's redelivery retries it.
 */
export async function handleStripeEvent(deps: Deps, event: StripeEventEnvelope): Promise<HandledEvent> {
  const prefix = `${event.type} ${event.id}`;
  const handler = Object.hasOwn(stripeEventHandlers, event.type) ? stripeEventHandlers[event.type] : undefined;
  if (!handler) return { handled: false, summary: `${prefix}: not a type this service acts on` };
  if (await isEventRecorded(deps.db, event.id)) return { handled: true, summary: `${prefix}: already applied` };
  const result = await handler(deps, event);
  const summary = typeof result === 'string' ? result : result.summary;
  if (typeof result === 'string') await recordEvent(deps.db, event, summary);
  return { handled: true, summary: `${prefix}: ${summary}` };
}
