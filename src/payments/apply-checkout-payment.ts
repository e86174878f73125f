import type { Deps } from '../deps';
import { promotePaidSubmission, type OurSession, type PromoteOutcome } from './promote-paid-submission';
import { refundUnappliedPayment, type ChargeMismatch } from './refund-unapplied';
import { linkMembershipCheckout } from './memberships';
import { ignoreForeign } from './ours';
import { checkoutSessionView, type CheckoutSessionView, type StripeEventEnvelope } from './stripe-event';
import { recordedBy, recordedQuietly, type HandlerResult } from './handler';

/**
 * A Checkout Session whose money has arrived (completed + paid, or async_payment_succeeded). Only a session we
 * created counts: a stranger's is acknowledged and left alone (no refund, no cancel); one of ours that charged
 * another mode, currency or amount is refunded; a membership checkout links the account to its Stripe
 * customer; a submission checkout promotes the pending record our session was made for, or refunds the payment
 * when it can no longer be applied. Every submission path records the event id in its own statement (the
 * promotion atomically with the queued site, a refund after the money went back), so the dispatcher adds no
 * statement: promotion is the lookup plus ONE.
 */
export async function applyCheckoutPayment(deps: Deps, event: StripeEventEnvelope): Promise<HandlerResult> {
  const session = checkoutSessionView(event.data.object);
  const outcome = await promotePaidSubmission(deps, {
    eventId: event.id,
    eventType: event.type,
    eventCreated: event.created,
    sessionId: session.sessionId,
    charged: session,
    paymentIntentId: session.paymentIntentId,
    subscriptionId: session.subscriptionId,
  });
  const refundable = {
    paymentIntentId: session.paymentIntentId,
    subscriptionId: session.subscriptionId,
    invoiceId: session.invoiceId,
  };
  switch (outcome.kind) {
    case 'not_ours':
      return ignoreForeign(deps, event, `checkout session ${session.sessionId || '?'}`);
    case 'mismatch': {
      const siteId = outcome.session.siteId ?? undefined;
      const mismatch = describeMismatch(outcome, session);
      return recordedBy(
        await refundUnappliedPayment(deps, event, { ...refundable, siteId, reason: 'mismatch', mismatch }),
      );
    }
    case 'membership':
      return linkMembershipCheckout(deps, event, session, outcome.session);
    case 'promoted': {
      const summary = `site ${outcome.siteId} queued via payment (${outcome.plan})`;
      return outcome.announce ? recordedBy(summary) : recordedQuietly(summary);
    }
    case 'duplicate':
      // A concurrent delivery of this same event id recorded it (our insert found it taken).
      return recordedQuietly(`duplicate delivery for ${outcome.siteId}: nothing changed`);
    case 'already_applied':
      return recordedQuietly(`site ${outcome.siteId} was already queued by session ${session.sessionId}`);
    case 'unapplied':
      return recordedBy(
        await refundUnappliedPayment(deps, event, { ...refundable, siteId: outcome.siteId, reason: outcome.reason }),
      );
  }
}

/** The differing field, as we created it and as the event says it was charged. */
function describeMismatch(
  outcome: Extract<PromoteOutcome, { kind: 'mismatch' }>,
  session: CheckoutSessionView,
): ChargeMismatch {
  const ours: OurSession = outcome.session;
  const show = (value: string | number | null | undefined) =>
    value === null || value === undefined ? 'none' : String(value);
  switch (outcome.field) {
    case 'mode':
      return { field: 'mode', expected: ours.mode, charged: show(session.mode) };
    case 'currency':
      return { field: 'currency', expected: show(ours.currency), charged: show(session.currency) };
    case 'amount_total':
      return {
        field: 'amount_total',
        expected: `${show(ours.amountTotal)} ${show(ours.currency)}`,
        charged: `${show(session.amountTotal)} ${show(session.currency)}`,
      };
  }
}
