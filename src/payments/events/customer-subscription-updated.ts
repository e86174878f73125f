import type { StripeEventHandler } from '../handler';
import { applySubscriptionChange } from '../subscription-change';

/** customer.subscription.updated: membership or sponsorship state from the subscription, newer-wins. */
export const customerSubscriptionUpdated: StripeEventHandler = (deps, event) => applySubscriptionChange(deps, event, false);
