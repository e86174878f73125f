import type { StripeEventHandler } from '../handler';
import { applySubscriptionChange } from '../subscription-change';

/** customer.subscription.deleted: membership or sponsorship state from the subscription, newer-wins. */
export const customerSubscriptionDeleted: StripeEventHandler = (deps, event) => applySubscriptionChange(deps, event, true);
