import type { Deps } from '../deps';
import { dispatchWebhookEvents, purgeOldDeliveries, redispatchStalledDeliveries } from './dispatch';

/**
 * Called after every step or request that can change a submission's status: the outbox rows its statements
 * wrote are enqueued now. Never throws: a failed dispatch leaves the rows undispatched for the next caller or
 * the sweep, and must not make a finished pipeline step look failed (and run again).
 */
export async function announceWebhookEvents(
  deps: Deps,
  options: { sweep?: boolean; overdueForMs?: number } = {},
): Promise<void> {
  try {
    await dispatchWebhookEvents(deps);
    if (options.sweep) {
      await redispatchStalledDeliveries(deps, options.overdueForMs);
      await purgeOldDeliveries(deps);
    }
  } catch (error) {
    deps.log.warn('webhook dispatch deferred', { err: String(error) });
  }
}
