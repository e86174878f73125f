import type { StripeEventHandler } from '../handler';
import { applyCheckoutPayment } from '../apply-checkout-payment';

/** checkout.session.async_payment_succeeded: the delayed payment arrived; applied exactly like a paid completion. */
export const checkoutSessionAsyncPaymentSucceeded: StripeEventHandler = (deps, event) => applyCheckoutPayment(deps, event);
