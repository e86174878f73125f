import type { Logger } from '../../log';
import type { EnqueueOptions, JobMessage, JobQueue, JobRunner, JobStep, RetryPolicy } from './types';

export interface LocalQueueOptions {
  log: Logger;
  /** Delay before a failed step runs again; a few seconds, so a failing crawl ends within a minute. */
  retryDelayMs?: number;
  /** Deliveries per message, like QStash's retries + 1. */
  maxDeliveries?: number;
}

/**
 * In-process queue that calls the very same job runner as the HTTP job endpoints. It survives nothing:
 * the sweep (run at start-up and on an interval) is what recovers work after a restart.
 */
export function createLocalQueue(options: LocalQueueOptions): JobQueue & {
  bind(runner: JobRunner): void;
  /** Resolves when no step is running or waiting (tests and graceful shutdown). */
  idle(): Promise<void>;
  stop(): void;
} {
  let runner: JobRunner | undefined;
  let pending = 0;
  let stopped = false;
  let waiters: Array<() => void> = [];
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const recent = new Map<string, number>();
  const retryDelayMs = options.retryDelayMs ?? 3000;
  const maxDeliveries = options.maxDeliveries ?? 4;

  const settle = () => {
    if (--pending === 0) {
      for (const w of waiters) w();
      waiters = [];
    }
  };

  const deliver = (step: JobStep, message: JobMessage, delivery: number, delayMs: number, retry?: RetryPolicy) => {
    pending++;
    const timer = setTimeout(async () => {
      timers.delete(timer);
      if (stopped || !runner) return settle();
      try {
        await runner(step, message);
      } catch (error) {
        options.log.warn('local job failed', {
          step,
          site_id: message.site_id,
          delivery_id: message.delivery_id,
          delivery,
          err: String(error),
        });
        // A step with its own schedule (webhook deliveries: over a day) retries like QStash would; others quickly.
        const deliveries = retry ? retry.retries + 1 : maxDeliveries;
        const wait = retry ? retry.delayMs(delivery - 1) : retryDelayMs;
        if (delivery < deliveries && !stopped) deliver(step, message, delivery + 1, wait, retry);
      }
      settle();
    }, delayMs);
    timers.add(timer);
  };

  return {
    kind: 'local',
    bind(r) {
      runner = r;
    },
    async enqueue(step: JobStep, message: JobMessage, opts: EnqueueOptions = {}) {
      if (opts.deduplicationId) {
        const now = Date.now();
        if ((recent.get(opts.deduplicationId) ?? 0) > now - 60_000) return;
        recent.set(opts.deduplicationId, now);
        if (recent.size > 10_000) recent.clear();
      }
      deliver(step, message, 1, (opts.delaySeconds ?? 0) * 1000, opts.retry);
    },
    idle: () => (pending === 0 ? Promise.resolve() : new Promise<void>((r) => waiters.push(r))),
    stop() {
      stopped = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      pending = 0;
      for (const w of waiters) w();
      waiters = [];
    },
  };
}
