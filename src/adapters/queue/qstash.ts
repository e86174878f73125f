import type { EnqueueOptions, JobMessage, JobQueue, JobStep } from './types';

/** QStash's API when QSTASH_URL is not set (the SDK's default too). */
const QSTASH_API = 'https://qstash.upstash.io';
/** Network failures before QStash answered are retried like the SDK does: 5 more tries, e^n × 50 ms apart. */
const NETWORK_RETRIES = 5;
const sdkBackoffMs = (attempt: number) => Math.exp(attempt) * 50;

/**
 * Publishes steps to QStash, which delivers them (signed) to POST {jobsOrigin}/api/jobs/{step},
 * retries failures (3 times, or on the step's own schedule), and calls the failure callback once retries are spent.
 *
 * One `POST /v2/publish/{destination}` with the headers `publishJSON` of @upstash/qstash sends (Upstash-Method,
 * -Retries, -Retry-Delay, -Failure-Callback, -Deduplication-Id, -Delay), written out here: the SDK's Client, with
 * its queues, schedules, DLQ and workflow APIs, cost the Worker bundle 9.7 KiB gzipped for this one call
 * (docs/bench.md "Worker bundle"). test/functions/jobs/qstash-publish.test.ts holds it to what the SDK sends.
 */
export function createQStashQueue(options: {
  token: string;
  baseUrl?: string;
  jobsOrigin: () => string;
  fetch?: typeof fetch;
  backoffMs?: (attempt: number) => number;
}): JobQueue {
  const api = (options.baseUrl ?? QSTASH_API).replace(/\/$/, '');
  return {
    kind: 'qstash',
    async enqueue(step: JobStep, message: JobMessage, opts: EnqueueOptions = {}) {
      const origin = options.jobsOrigin();
      const headers: Record<string, string> = {
        authorization: `Bearer ${options.token}`,
        'content-type': 'application/json',
        'upstash-method': 'POST',
        'upstash-retries': String(opts.retry?.retries ?? 3),
        'upstash-failure-callback': `${origin}/api/jobs/${step}?failure=1`,
      };
      if (opts.retry) headers['upstash-retry-delay'] = opts.retry.qstashExpression;
      if (opts.deduplicationId) headers['upstash-deduplication-id'] = opts.deduplicationId;
      if (opts.delaySeconds) headers['upstash-delay'] = `${opts.delaySeconds.toFixed(0)}s`;
      const request = { method: 'POST', headers, body: JSON.stringify(message) };
      const url = `${api}/v2/publish/${origin}/api/jobs/${step}`;
      let response: Response | undefined;
      for (let attempt = 0; !response; attempt++) {
        try {
          response = await (options.fetch ?? fetch)(url, request);
        } catch (error) {
          if (attempt >= NETWORK_RETRIES) throw error;
          await new Promise((resolve) => setTimeout(resolve, (options.backoffMs ?? sdkBackoffMs)(attempt)));
        }
      }
      if (!response.ok) {
        const text = await response.text().catch(() => '');
        throw new Error(`QStash refused the publish of ${step}: HTTP ${response.status} ${text.slice(0, 200)}`);
      }
    },
  };
}
