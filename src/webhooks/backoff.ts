import type { RetryPolicy } from '../adapters/queue/types';
import type { Deps } from '../deps';

/** Retries after the first attempt: 7 attempts in all. */
export const WEBHOOK_RETRIES = 6;

/**
 * Wait before retry n (0-based): 1 min, 5 min, 25 min, ~2 h, ~10.4 h, then a day, so the last attempt comes
 * ~37 h after the first (a receiver down for a day still gets the event). The same curve as QStash's
 * Upstash-Retry-Delay expression below, so `next_retry_at` in the deliveries list is what QStash will do.
 */
export function webhookRetryDelayMs(retried: number): number {
  return Math.min(86_400_000, 60_000 * 5 ** retried);
}

const QSTASH_EXPRESSION = 'min(86400000, 60000 * pow(5, retried))';

/**
 * The webhook step's schedule. Tests shorten the LOCAL queue's waits through deps.webhooks.retryDelayMs; QStash
 * always runs the expression, so `next_retry_at` then follows the real curve.
 */
export function webhookRetryPolicy(deps: Pick<Deps, 'webhooks' | 'queue'>): RetryPolicy {
  const delayMs =
    deps.queue.kind === 'local' ? (deps.webhooks.retryDelayMs ?? webhookRetryDelayMs) : webhookRetryDelayMs;
  return { retries: WEBHOOK_RETRIES, delayMs, qstashExpression: QSTASH_EXPRESSION };
}
