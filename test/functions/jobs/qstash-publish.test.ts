// The queue publishes to QStash with its own few lines of fetch (src/adapters/queue/qstash.ts), not the SDK's
// Client: this holds every publish to what `publishJSON` of @upstash/qstash sends for the same message (route,
// body and every header but the SDK's telemetry), against the QStash stand-in, and checks the failure paths.
import { Client } from '@upstash/qstash';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQStashQueue } from '../../../src/adapters/queue/qstash';
import type { EnqueueOptions, JobMessage, JobStep } from '../../../src/adapters/queue/types';
import { type PublishedMessage, type QStashStandIn, startQStashStandIn } from '../../helpers/standins/qstash-server';

const ORIGIN = 'http://127.0.0.1:9/origin';
let qstash: QStashStandIn;
beforeAll(async () => {
  qstash = await startQStashStandIn();
});
afterAll(async () => {
  await qstash?.close();
});

/** What the SDK sends for the same enqueue (the former implementation of the queue, word for word). */
async function publishWithSdk(step: JobStep, message: JobMessage, opts: EnqueueOptions = {}) {
  const client = new Client({ token: qstash.token, baseUrl: qstash.url, retry: false, enableTelemetry: false });
  await client.publishJSON({
    url: `${ORIGIN}/api/jobs/${step}`,
    body: message,
    retries: opts.retry?.retries ?? 3,
    ...(opts.retry && { retryDelay: opts.retry.qstashExpression }),
    failureCallback: `${ORIGIN}/api/jobs/${step}?failure=1`,
    ...(opts.deduplicationId && { deduplicationId: opts.deduplicationId }),
    ...(opts.delaySeconds && { delay: opts.delaySeconds }),
  });
}

/** The recorded publish without what differs between any two requests (ids, connection headers). */
const comparable = (m: PublishedMessage | undefined) => {
  expect(m).toBeDefined();
  const { messageId: _id, headers, ...rest } = m as PublishedMessage;
  const kept = Object.fromEntries(
    Object.entries(headers).filter(
      ([name]) =>
        ![
          'host',
          'connection',
          'content-length',
          'user-agent',
          'accept',
          'accept-encoding',
          'accept-language',
          'sec-fetch-mode',
        ].includes(name),
    ),
  );
  return { ...rest, headers: kept };
};

const cases: Array<[string, JobStep, JobMessage, EnqueueOptions | undefined]> = [
  ['defaults', 'crawl', { site_id: 'site-1' }, undefined],
  [
    'a deduplication id and a delay',
    'review',
    { site_id: 'site-2' },
    { deduplicationId: 'site-2:review:1', delaySeconds: 90 },
  ],
  [
    'its own retry schedule',
    'webhook',
    { delivery_id: 'd-1' },
    { retry: { retries: 7, delayMs: () => 1000, qstashExpression: 'pow(2, retried) * 1000' } },
  ],
];

describe('publishing to QStash', () => {
  it.each(cases)('sends what the SDK sends: %s', async (_name, step, message, opts) => {
    const queue = createQStashQueue({ token: qstash.token, baseUrl: qstash.url, jobsOrigin: () => ORIGIN });
    // A deduplication id is sent once by each (suffixed), or the stand-in, like QStash, would record only the first.
    const as = (who: string) =>
      opts?.deduplicationId ? { ...opts, deduplicationId: `${opts.deduplicationId}:${who}` } : opts;
    qstash.clearMessages();
    await queue.enqueue(step, message, as('ours'));
    await publishWithSdk(step, message, as('sdk'));
    expect(qstash.messages).toHaveLength(2);
    const [ours, sdk] = qstash.messages
      .map(comparable)
      .map((m) => JSON.parse(JSON.stringify(m).replaceAll(':ours', ':who').replaceAll(':sdk', ':who')) as unknown);
    expect(ours).toEqual(sdk);
    expect(qstash.messages[0]?.destination).toBe(`${ORIGIN}/api/jobs/${step}`);
    expect(JSON.parse(qstash.messages[0]?.body ?? '')).toEqual(message);
  });

  it('a deduplication id repeated is sent again and recorded once by QStash', async () => {
    const queue = createQStashQueue({ token: qstash.token, baseUrl: qstash.url, jobsOrigin: () => ORIGIN });
    qstash.clearMessages();
    await queue.enqueue('crawl', { site_id: 'dup' }, { deduplicationId: 'dup:crawl:once' });
    await queue.enqueue('crawl', { site_id: 'dup' }, { deduplicationId: 'dup:crawl:once' });
    expect(qstash.messages.map((m) => m.deduplicationId)).toEqual(['dup:crawl:once']);
  });

  it('a refused publish (wrong token) throws with the status and records nothing', async () => {
    const queue = createQStashQueue({ token: 'not-the-token', baseUrl: qstash.url, jobsOrigin: () => ORIGIN });
    qstash.clearMessages();
    await expect(queue.enqueue('crawl', { site_id: 'x' })).rejects.toThrow(
      /QStash refused the publish of crawl: HTTP 401/,
    );
    expect(qstash.messages).toEqual([]);
  });

  it('a network failure is retried (5 more tries, as the SDK does), then thrown', async () => {
    let calls = 0;
    const failing: typeof fetch = async () => {
      calls++;
      throw new TypeError('fetch failed');
    };
    const queue = createQStashQueue({
      token: qstash.token,
      baseUrl: qstash.url,
      jobsOrigin: () => ORIGIN,
      fetch: failing,
      backoffMs: () => 1,
    });
    await expect(queue.enqueue('crawl', { site_id: 'x' })).rejects.toThrow('fetch failed');
    expect(calls).toBe(6);
  });

  it('a network failure followed by an answer publishes once', async () => {
    let calls = 0;
    const flaky: typeof fetch = async (input, init) => {
      if (++calls === 1) throw new TypeError('fetch failed');
      return fetch(input, init);
    };
    const queue = createQStashQueue({
      token: qstash.token,
      baseUrl: qstash.url,
      jobsOrigin: () => ORIGIN,
      fetch: flaky,
      backoffMs: () => 1,
    });
    qstash.clearMessages();
    await queue.enqueue('sweep', {});
    expect(calls).toBe(2);
    expect(qstash.messages.map((m) => m.destination)).toEqual([`${ORIGIN}/api/jobs/sweep`]);
  });
});
