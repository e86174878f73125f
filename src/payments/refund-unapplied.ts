import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import type { UnappliedReason } from '../submissions/pay';
import type { StripeEventEnvelope } from './stripe-event';

/** What the caller reads as `rejection_reason` on the detail read of a refunded submission. */
export const refundReasons: Record<UnappliedReason, string> = {
  taken: 'Another submission with this URL or name was queued before your payment arrived. Your payment was refunded.',
  gone: 'The submission this payment was for no longer exists. Your payment was refunded.',
  already_paid: 'This submission was already paid for or queued. The extra payment was refunded.',
  refunded_record: 'This submission could not be applied. Your payment was refunded.',
};

export interface UnappliedPayment {
  siteId?: string;
  paymentIntentId?: string;
  subscriptionId?: string;
  invoiceId?: string;
  reason: UnappliedReason;
}

/**
 * Never keep money without a queued submission: refund first (idempotent on the payment intent, so a retry
 * after a crash refunds once), then mark the still-pending record refunded with the reason and record the
 * event in one statement. If the refund fails the error propagates, the event stays unrecorded, and Stripe's
 * redelivery tries again.
 */
export async function refundUnappliedPayment(deps: Deps, event: StripeEventEnvelope, p: UnappliedPayment): Promise<string> {
  const reason = refundReasons[p.reason];
  let refunded: string;
  if (p.subscriptionId) {
    await deps.payments.cancelSubscriptionAndRefund(p.subscriptionId, p.invoiceId, reason);
    refunded = `subscription ${p.subscriptionId} cancelled and refunded`;
  } else if (p.paymentIntentId) {
    await deps.payments.refund(p.paymentIntentId, reason);
    refunded = `payment ${p.paymentIntentId} refunded`;
  } else {
    refunded = 'nothing was charged';
  }
  const summary = `${refunded} (${p.reason}) for ${p.siteId ?? 'unknown submission'}`;
  await queryRows(
    deps.db,
    sql`WITH marked AS (
          UPDATE pending_submissions SET state = 'refunded', state_note = ${reason}
          WHERE id = ${p.siteId ?? null}::uuid AND state IN ('open', 'expired') AND ${p.reason === 'taken'}
          RETURNING id
        )
        INSERT INTO stripe_events (id, type, summary) VALUES (${event.id}, ${event.type}, ${summary})
        ON CONFLICT (id) DO NOTHING RETURNING id`,
  );
  deps.log.warn('stripe payment refunded', { eventId: event.id, siteId: p.siteId, reason: p.reason });
  return summary;
}
