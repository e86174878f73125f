import { Client } from '@upstash/qstash';
import type { EnqueueOptions, JobMessage, JobQueue, JobStep } from './types';

/**
 * Publishes steps to QStash, which delivers them (signed) to POST {jobsOrigin}/api/jobs/{step},
 * retries failures, and calls the failure callback once retries are spent.
 */
export function createQStashQueue(options: { token: string; baseUrl?: string; jobsOrigin: () => string }): JobQueue {
  let client: Client | undefined;
  const qstash = () => (client ??= new Client({ token: options.token, ...(options.baseUrl && { baseUrl: options.baseUrl }) }));
  return {
    kind: 'qstash',
    async enqueue(step: JobStep, message: JobMessage, opts: EnqueueOptions = {}) {
      const origin = options.jobsOrigin();
      await qstash().publishJSON({
        url: `${origin}/api/jobs/${step}`,
        body: message,
        retries: 3,
        failureCallback: `${origin}/api/jobs/${step}?failure=1`,
        ...(opts.deduplicationId && { deduplicationId: opts.deduplicationId }),
        ...(opts.delaySeconds && { delay: opts.delaySeconds }),
      });
    },
  };
}
