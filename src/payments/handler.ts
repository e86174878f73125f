import type { Deps } from '../deps';
import type { StripeEventEnvelope } from './stripe-event';

/** One Stripe event type's handler: applies it and returns a one-line summary for the log. */
export type StripeEventHandler = (deps: Deps, event: StripeEventEnvelope) => Promise<string>;
