import type { Client } from '@upstash/qstash';
import type { EnqueueOptions, JobMessage, JobQueue, JobStep } from './types';

/**
 * Publishes steps to QStash, which delivers them (signed) to POST {jobsOrigin}/api/jobs/{step},
 * retries failures (3 times, or on the step's own schedule), and calls the failure callback once retries are spent.
 */
export function createQStashQueue(options: { token: string; baseUrl?: string; jobsOrigin: () => string }): JobQueue {
  // The SDK is imported on first publish, not when the isolate starts.
  let client: Client | undefined;
  const qstash = async () => {
    if (client) return client;
    const { QStashClient } = await import('./qstash-sdk');
    return (client ??= new QStashClient({ token: options.token, ...(options.baseUrl && { baseUrl: options.baseUrl }) }));
  };
  return {
    kind: 'qstash',
    async enqueue(step: JobStep, message: JobMessage, opts: EnqueueOptions = {}) {
      const origin = options.jobsOrigin();
      await (await qstash()).publishJSON({
        url: `${origin}/api/jobs/${step}`,
        body: message,
        retries: opts.retry?.retries ?? 3,
        ...(opts.retry && { retryDelay: opts.retry.qstashExpression }),
        failureCallback: `${origin}/api/jobs/${step}?failure=1`,
        ...(opts.deduplicationId && { deduplicationId: opts.deduplicationId }),
        ...(opts.delaySeconds && { delay: opts.delaySeconds }),
      });
    },
  };
}
