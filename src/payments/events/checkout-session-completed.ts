import type { StripeEventHandler } from '../handler';
import { applyCheckoutPayment } from '../apply-checkout-payment';
import { ignoreForeign, isOurSession } from '../ours';
import { checkoutSessionView } from '../stripe-event';

/**
 * checkout.session.completed: paid (or nothing to pay) applies the payment at once; `unpaid` means an
 * asynchronous payment method is still settling, so nothing changes until async_payment_succeeded.
 */
export const checkoutSessionCompleted: StripeEventHandler = async (deps, event) => {
  const session = checkoutSessionView(event.data.object);
  if (session.paymentStatus !== 'unpaid') return applyCheckoutPayment(deps, event);
  if (!(await isOurSession(deps, session.sessionId))) return ignoreForeign(deps, event, `checkout session ${session.sessionId || '?'}`);
  return `session ${session.sessionId} completed unpaid: waiting for the async payment`;
};
