import type { StripeEventHandler } from '../handler';
import { ignoreForeign, isOurSession } from '../ours';
import { checkoutSessionView } from '../stripe-event';

/** checkout.session.async_payment_failed: no money arrived; the record stays pending and its link usable until it expires. */
export const checkoutSessionAsyncPaymentFailed: StripeEventHandler = async (deps, event) => {
  const session = checkoutSessionView(event.data.object);
  if (!(await isOurSession(deps, session.sessionId))) return ignoreForeign(deps, event, `checkout session ${session.sessionId || '?'}`);
  return `async payment failed for session ${session.sessionId}: its record stays pending`;
};
