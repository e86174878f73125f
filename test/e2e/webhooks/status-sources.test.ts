// Status changes made outside the job steps are announced too: a paid checkout (Stripe event), a refunded one
// (its URL was taken before the payment landed), an editor's decision, and a crawl failure with the words
// submitters are told. Those requests enqueue the outbox off the response path (waitUntil, as on Workers).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalQueue } from '../../../src/adapters/queue/local';
import { createLogger } from '../../../src/log';
import { runJob } from '../../../src/jobs/run-job';
import { startFixtureSite, type FixtureSite } from '../../helpers/fixture-site';
import { createPipelineApp, networkViolations, type PipelineApp } from '../../helpers/pipeline-harness';
import { paidSession, recordingPayments, submitUnpaid } from '../../helpers/stripe/payments-fixture';
import { eventFixture, signFixture } from '../../helpers/stripe/stripe-fixtures';
import { ADMIN_TOKEN, WEBHOOK_SECRET, createTestApp, uniqueUrl, type TestApp } from '../../helpers/test-app';
import {
  loopbackOnlyWebhookTransport,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../helpers/webhook-receiver';

/** A request through the app with an execution context whose waitUntil work the test awaits. */
async function requestWaiting(app: TestApp['app'], path: string, init: RequestInit): Promise<Response> {
  const deferred: Array<Promise<unknown>> = [];
  const ctx = {
    waitUntil: (work: Promise<unknown>) => void deferred.push(work),
    passThroughOnException: () => {},
    props: {},
  };
  const res = await app.request(`http://tooldir.test${path}`, init, undefined, ctx);
  await Promise.all(deferred);
  return res;
}

async function hookTo(t: TestApp, key: string, receiver: WebhookReceiver) {
  const res = await t.request('/api/v1/webhooks', { method: 'POST', key, json: { url: `${receiver.url}/hook` } });
  expect(res.status).toBe(201);
  receiver.secret = ((await res.json()) as { secret: string }).secret;
}

const transitions = (receiver: WebhookReceiver) => {
  expect(receiver.received.map((r) => r.verifyError).filter(Boolean)).toEqual([]);
  return receiver.received.map((r) => r.event!.data);
};

describe('payments: Stripe events move submissions', () => {
  const transport = loopbackOnlyWebhookTransport();
  // Only webhook deliveries run: these submissions' URLs are not crawlable and nothing here needs a crawl.
  const queue = createLocalQueue({ log: createLogger('silent'), retryDelayMs: 5 });
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: { WEBHOOK_ALLOW_PRIVATE: 'true' },
      overrides: { queue, payments: recordingPayments(), webhooks: transport },
    });
    queue.bind(async (step, message) => {
      if (step === 'webhook') await runJob(t.deps, step, message);
    });
  });
  afterAll(async () => {
    await t.close();
    expect(transport.violations).toEqual([]);
  });

  const stripeEvent = (body: string) =>
    requestWaiting(t.app, '/api/webhooks/stripe', {
      method: 'POST',
      body,
      headers: { 'stripe-signature': signFixture(body, WEBHOOK_SECRET), 'content-type': 'application/json' },
    });

  it('a paid checkout announces pending_payment → queued', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const payer = await t.member('none');
      await hookTo(t, payer.key, receiver);
      const p = await submitUnpaid(t, payer.key);
      expect((await stripeEvent(eventFixture('checkout.session.completed', paidSession(p)))).status).toBe(200);
      await queue.idle();
      expect(transitions(receiver)).toEqual([
        { site_id: p.siteId, name: p.name, url: p.url, status: 'queued', previous_status: 'pending_payment' },
      ]);
    } finally {
      await receiver.close();
    }
  });

  it('a payment refunded because the URL was taken meanwhile announces rejected, with the reason', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const payer = await t.member('none');
      await hookTo(t, payer.key, receiver);
      const url = uniqueUrl();
      const p = await submitUnpaid(t, payer.key, { url });
      const other = await t.member('member');
      expect(
        (
          await t.request('/api/v1/submit-site', {
            method: 'POST',
            key: other.key,
            json: { name: `Other ${p.name}`, url },
          })
        ).status,
      ).toBe(201);
      expect((await stripeEvent(eventFixture('checkout.session.completed', paidSession(p)))).status).toBe(200);
      await queue.idle();
      expect(transitions(receiver)).toEqual([
        {
          site_id: p.siteId,
          name: p.name,
          url: p.url,
          status: 'rejected',
          previous_status: 'pending_payment',
          reason: expect.stringContaining('URL or name'),
        },
      ]);
    } finally {
      await receiver.close();
    }
  });
});

describe('the pipeline and the editor', () => {
  const transport = loopbackOnlyWebhookTransport();
  let t: PipelineApp;
  let fixture: FixtureSite;
  beforeAll(async () => {
    t = await createPipelineApp({
      env: { WEBHOOK_ALLOW_PRIVATE: 'true', AUTO_APPROVE: 'false', CRAWL_MAX_ATTEMPTS: '1' },
      overrides: { webhooks: transport },
    });
    fixture = await startFixtureSite({
      '/': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Reviewed Tool</title>'),
      '/gone': (_req, res) => void res.writeHead(404).end('gone'),
    });
  });
  afterAll(async () => {
    await t.close();
    await fixture.close();
    expect(transport.violations).toEqual([]);
    expect(networkViolations).toEqual([]);
  });

  it("an editor's rejection is announced with the editor's reason", async () => {
    const receiver = await startWebhookReceiver();
    try {
      const m = await t.member('member');
      await hookTo(t, m.key, receiver);
      const siteId = await t.submit(m.key, {
        name: `Reviewed ${Date.now()}`,
        url: `http://reviewed-${Date.now()}.localhost:${fixture.port}/`,
      });
      await t.settle();
      expect((await t.site(siteId)).status).toBe('pending_review');
      const decided = await requestWaiting(t.app, `/api/v1/admin/sites/${siteId}/review`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ decision: 'reject', reason: 'Not a developer tool' }),
      });
      expect(decided.status).toBe(200);
      await t.settle();
      const rejected = transitions(receiver).filter((d) => d.status === 'rejected');
      expect(rejected).toEqual([
        expect.objectContaining({ site_id: siteId, previous_status: 'pending_review', reason: 'Not a developer tool' }),
      ]);
      expect(rejected[0]).not.toHaveProperty('live_url');
    } finally {
      await receiver.close();
    }
  });

  it('a crawl failure is announced with the words submitters are told, never our network', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const m = await t.member('member');
      await hookTo(t, m.key, receiver);
      const siteId = await t.submit(m.key, {
        name: `Gone ${Date.now()}`,
        url: `http://gone-${Date.now()}.localhost:${fixture.port}/gone`,
      });
      await t.settle();
      expect((await t.site(siteId)).status).toBe('crawl_failed');
      const events = transitions(receiver);
      expect(events.map((d) => `${d.previous_status}→${d.status}`).sort()).toEqual([
        'crawling→crawl_failed',
        'null→queued',
        'queued→crawling',
      ]);
      expect(events.find((d) => d.status === 'crawl_failed')).toEqual(
        expect.objectContaining({ site_id: siteId, reason: 'the site answered HTTP 404' }),
      );
      expect(events.filter((d) => d.status !== 'crawl_failed').every((d) => !('reason' in d))).toBe(true);
    } finally {
      await receiver.close();
    }
  });
});
