import type { StripeEventHandler } from '../handler';
import { applySubscriptionChange } from '../subscription-change';

/** customer.subscription.created: membership or sponsorship state from the subscription, newer-wins. */
export const customerSubscriptionCreated: StripeEventHandler = (deps, event) => applySubscriptionChange(deps, event, false);
