import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import type { UnappliedReason } from './promote-paid-submission';
import type { SessionMismatch } from '../submissions/checkout-record';
import type { StripeEventEnvelope } from './stripe-event';
import { payableStates } from '../catalog/payment-states';
import { sqlWords } from '../db/sql-format';

/** What the caller reads as `rejection_reason` on the detail read of a refunded submission. */
export const refundReasons: Record<Exclude<UnappliedReason, 'mismatch'>, string> = {
  taken: 'Another submission with this URL or name was queued before your payment arrived. Your payment was refunded.',
  gone: 'The submission this payment was for no longer exists. Your payment was refunded.',
  already_paid: 'This submission was already paid for or queued. The extra payment was refunded.',
  refunded_record: 'This submission could not be applied. Your payment was refunded.',
  superseded:
    'The maker of this tool listed it themselves before your payment arrived, so it is not listed twice. Your payment was refunded.',
};

/** A paid session of ours that charged something else than we created (docs/payments.md). */
export interface ChargeMismatch {
  field: SessionMismatch;
  /** What we created, and what the event says was charged, as text (e.g. "1590 usd"). */
  expected: string;
  charged: string;
}

const mismatchReason = (m: ChargeMismatch) =>
  `The payment did not match the checkout created for this submission (${m.field}: ${m.charged} instead of ${m.expected}). Your payment was refunded.`;

export type UnappliedPayment = {
  siteId?: string;
  paymentIntentId?: string;
  subscriptionId?: string;
  invoiceId?: string;
} & ({ reason: Exclude<UnappliedReason, 'mismatch'> } | { reason: 'mismatch'; mismatch: ChargeMismatch });

/** The pending record is marked refunded (and reads as rejected with the reason) when it can never be applied. */
const MARKS_RECORD = new Set<UnappliedReason>(['taken', 'mismatch']);
/** A superseded record stays superseded; its note ("nothing was charged") is replaced by the refund's reason. */
const NOTES_SUPERSEDED = new Set<UnappliedReason>(['superseded']);

/**
 * Never keep money without a queued submission: refund first (idempotent on the payment intent, so a retry
 * after a crash refunds once), then mark the still-pending record refunded with the reason and record the
 * event in one statement. If the refund fails the error propagates, the event stays unrecorded, and Stripe's
 * redelivery tries again.
 */
export async function refundUnappliedPayment(
  deps: Deps,
  event: StripeEventEnvelope,
  p: UnappliedPayment,
): Promise<string> {
  const reason = p.reason === 'mismatch' ? mismatchReason(p.mismatch) : refundReasons[p.reason];
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
          WHERE id = ${p.siteId ?? null}::uuid AND state IN (${sqlWords(payableStates)}) AND ${MARKS_RECORD.has(p.reason)}
          RETURNING id
        ), noted AS (
          UPDATE pending_submissions SET state_note = ${reason}
          WHERE id = ${p.siteId ?? null}::uuid AND state = 'superseded' AND ${NOTES_SUPERSEDED.has(p.reason)}
          RETURNING id
        )
        INSERT INTO stripe_events (id, type, summary) VALUES (${event.id}, ${event.type}, ${summary})
        ON CONFLICT (id) DO NOTHING RETURNING id`,
  );
  deps.log.warn('stripe payment refunded', { eventId: event.id, siteId: p.siteId, reason: p.reason });
  return summary;
}
