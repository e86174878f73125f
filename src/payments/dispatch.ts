import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import type { StripeEventHandler } from './handler';
import { isEventRecorded, recordEvent } from './event-log';
import { applyCheckoutPayment } from './apply-checkout-payment';
import { applyInvoiceChange } from './invoice-change';
import { ignoreForeign, isOurSession } from './ours';
import { applySubscriptionChange } from './subscription-change';
import { checkoutSessionView, type StripeEventEnvelope } from './stripe-event';

/** The summary of a session event that needs nothing but to be ours (else it is ignored as foreign). */
async function unlessForeign(
  deps: Deps,
  event: StripeEventEnvelope,
  summary: (sessionId: string) => string,
): Promise<string> {
  const session = checkoutSessionView(event.data.object);
  if (!(await isOurSession(deps, session.sessionId)))
    return ignoreForeign(deps, event, `checkout session ${session.sessionId || '?'}`);
  return summary(session.sessionId);
}

/**
 * checkout.session.expired of one of our sessions: the pending record becomes `expired` only while this session
 * is its current one (a replaced link expiring must not touch the fresh one), and its expires_at becomes the
 * moment the link stopped working (the event's time when Stripe expired it early), so the detail read shows it
 * dead. It stays readable by id until purged.
 */
const checkoutSessionExpired: StripeEventHandler = async (deps, event) => {
  const session = checkoutSessionView(event.data.object);
  const [row] = await queryRows<{ ours: string | null; pending_id: string | null }>(
    deps.db,
    sql`WITH ours AS (
          SELECT id FROM checkout_sessions WHERE id = ${session.sessionId}
        ), expired AS (
          UPDATE pending_submissions p SET state = 'expired', expires_at = least(p.expires_at, to_timestamp(${event.created}))
          FROM ours WHERE p.checkout_session_id = ours.id AND p.state = 'open'
          RETURNING p.id
        )
        SELECT (SELECT id FROM ours) AS ours, (SELECT id FROM expired) AS pending_id`,
  );
  if (!row?.ours) return ignoreForeign(deps, event, `checkout session ${session.sessionId || '?'}`);
  return row.pending_id
    ? `pending ${row.pending_id} expired`
    : `session ${session.sessionId} is no pending record's current link: nothing changed`;
};

/** The Stripe event types this service acts on; enable exactly these on the webhook endpoint (docs/payments.md). */
export const stripeEventHandlers: Readonly<Record<string, StripeEventHandler>> = {
  // Paid (or nothing to pay) applies the payment at once; `unpaid` means an asynchronous payment method is still
  // settling, so nothing changes until async_payment_succeeded.
  'checkout.session.completed': (deps, event) =>
    checkoutSessionView(event.data.object).paymentStatus === 'unpaid'
      ? unlessForeign(deps, event, (id) => `session ${id} completed unpaid: waiting for the async payment`)
      : applyCheckoutPayment(deps, event),
  // The delayed payment arrived: applied exactly like a paid completion.
  'checkout.session.async_payment_succeeded': applyCheckoutPayment,
  // No money arrived: the record stays pending, its link usable until it expires.
  'checkout.session.async_payment_failed': (deps, event) =>
    unlessForeign(deps, event, (id) => `async payment failed for session ${id}: its record stays pending`),
  'checkout.session.expired': checkoutSessionExpired,
  // Membership or sponsorship state from the subscription, newer-wins.
  'customer.subscription.created': (deps, event) => applySubscriptionChange(deps, event, { deleted: false }),
  'customer.subscription.updated': (deps, event) => applySubscriptionChange(deps, event, { deleted: false }),
  'customer.subscription.deleted': (deps, event) => applySubscriptionChange(deps, event, { deleted: true }),
  // The paid period is extended; a failed renewal keeps it (past_due lasts until it ends).
  'invoice.paid': (deps, event) => applyInvoiceChange(deps, event, { paid: true }),
  'invoice.payment_failed': (deps, event) => applyInvoiceChange(deps, event, { paid: false }),
};

export interface HandledEvent {
  /** False for a verified event of a type this service does not act on (answered 200 all the same). */
  handled: boolean;
  summary: string;
  /** False when the event changed no status an account's webhook endpoints would hear of (a redelivery, an ignored type, a quiet handler). */
  announce: boolean;
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
  if (!handler) return { handled: false, summary: `${prefix}: not a type this service acts on`, announce: false };
  if (await isEventRecorded(deps.db, event.id))
    return { handled: true, summary: `${prefix}: already applied`, announce: false };
  const result = await handler(deps, event);
  const summary = typeof result === 'string' ? result : result.summary;
  if (typeof result === 'string') await recordEvent(deps.db, event, summary);
  return { handled: true, summary: `${prefix}: ${summary}`, announce: typeof result === 'string' || !result.quiet };
}
