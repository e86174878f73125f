import type { Deps } from '../deps';
import { isUuid } from '../submissions/get';
import { promotePaidSubmission } from '../submissions/pay';
import { refundUnappliedPayment } from './refund-unapplied';
import { linkMembershipCheckout } from './memberships';
import { checkoutSessionView, type StripeEventEnvelope } from './stripe-event';
import { recordedBy, type HandlerResult } from './handler';

/**
 * A Checkout Session whose money has arrived (completed + paid, or async_payment_succeeded): a membership
 * checkout links the account to its Stripe customer; any other promotes the submission named by
 * client_reference_id, or refunds the payment when it can no longer be applied. Every path but the membership
 * one records the event id in its own statement (the promotion atomically with the queued site, a refund
 * after the money went back), so the dispatcher adds no statement: promotion is the lookup plus ONE.
 */
export async function applyCheckoutPayment(deps: Deps, event: StripeEventEnvelope): Promise<HandlerResult> {
  const session = checkoutSessionView(event.data.object);
  if (session.metadata.purpose === 'membership') return linkMembershipCheckout(deps, event, session);
  const siteId = session.clientReferenceId ?? session.metadata.site_id;
  const refundable = {
    siteId: siteId && isUuid(siteId) ? siteId : undefined,
    paymentIntentId: session.paymentIntentId,
    subscriptionId: session.subscriptionId,
    invoiceId: session.invoiceId,
  };
  if (!refundable.siteId) return recordedBy(await refundUnappliedPayment(deps, event, { ...refundable, reason: 'gone' }));
  const outcome = await promotePaidSubmission(deps, {
    eventId: event.id,
    eventType: event.type,
    eventCreated: event.created,
    siteId: refundable.siteId,
    sessionId: session.sessionId,
    paymentIntentId: session.paymentIntentId,
    subscriptionId: session.mode === 'subscription' ? session.subscriptionId : undefined,
    paidPlan: session.metadata.plan,
  });
  switch (outcome.kind) {
    case 'promoted':
      return recordedBy(`site ${outcome.siteId} queued via payment (${outcome.plan})`);
    case 'duplicate':
      // A concurrent delivery of this same event id recorded it (our insert found it taken).
      return recordedBy(`duplicate delivery for ${refundable.siteId}: nothing changed`);
    case 'already_applied':
      return recordedBy(`site ${refundable.siteId} was already queued by session ${session.sessionId}`);
    case 'unapplied':
      return recordedBy(await refundUnappliedPayment(deps, event, { ...refundable, reason: outcome.reason }));
  }
}
