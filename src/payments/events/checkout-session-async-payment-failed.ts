import type { StripeEventHandler } from '../handler';
import { checkoutSessionView } from '../stripe-event';

/** checkout.session.async_payment_failed: no money arrived; the record stays pending and its link usable until it expires. */
export const checkoutSessionAsyncPaymentFailed: StripeEventHandler = async (_deps, event) => {
  const session = checkoutSessionView(event.data.object);
  return `async payment failed for session ${session.sessionId}: ${session.clientReferenceId ?? '?'} stays pending`;
};
