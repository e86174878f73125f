import type { Deps } from '../deps';
import type { StripeEventEnvelope } from './stripe-event';

/**
 * What a handler returns: its one-line summary for the log, which the dispatcher then records with the event
 * id; or `{ summary, recorded: true }` when the handler's own statement already recorded the event id
 * atomically with its change (the dispatcher then spends no statement on it).
 */
export type HandlerResult = string | { summary: string; recorded: true; quiet?: true };

/** One Stripe event type's handler: applies it and says what it did. */
export type StripeEventHandler = (deps: Deps, event: StripeEventEnvelope) => Promise<HandlerResult>;

/** Marks a summary as already recorded by the handler's own statement. */
export const recordedBy = (summary: string): HandlerResult => ({ summary, recorded: true });

/**
 * Recorded by the handler's statement, and nothing for webhook endpoints to hear: no status changed, or the
 * account has no endpoints. The request then skips the outbox dispatch (functions/middleware/announce-status-changes.ts).
 */
export const recordedQuietly = (summary: string): HandlerResult => ({ summary, recorded: true, quiet: true });
