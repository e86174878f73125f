// The production queue path: webhook deliveries published to QStash (the stand-in) with our retry schedule and a
// failure callback, delivered back to POST /api/jobs/webhook signed like QStash does. A non-2xx from the receiver
// answers 503 so QStash retries; a duplicate delivery sends nothing; the failure callback ends a delivery.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { htmlPage, startFixtureSite, type FixtureSite } from '../../helpers/fixture-site';
import { loopbackOnlyTransport, networkViolations } from '../../helpers/pipeline-harness';
import { signQStash } from '../../helpers/standins/qstash-signer';
import { startQStashStandIn, type PublishedMessage, type QStashStandIn } from '../../helpers/standins/qstash-server';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import {
  loopbackOnlyWebhookTransport,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../helpers/webhook-receiver';

const SIGNING_KEY = 'sig_current_0123456789';
const transport = loopbackOnlyWebhookTransport();
let qstash: QStashStandIn;
let t: TestApp;
let fixture: FixtureSite;
beforeAll(async () => {
  qstash = await startQStashStandIn();
  fixture = await startFixtureSite({ '/': htmlPage('<title>Queued Tool</title>') });
  t = await createTestApp({
    env: {
      QSTASH_TOKEN: qstash.token,
      QSTASH_URL: qstash.url,
      QSTASH_CURRENT_SIGNING_KEY: SIGNING_KEY,
      QSTASH_NEXT_SIGNING_KEY: 'sig_next_0123456789',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      CRAWL_ALLOW_PRIVATE: 'true',
    },
    overrides: { webhooks: transport, crawl: loopbackOnlyTransport() },
  });
});
afterAll(async () => {
  await t.close();
  await qstash.close();
  await fixture.close();
  expect(transport.violations).toEqual([]);
  expect(networkViolations).toEqual([]);
});

/** What QStash does with a published message: POST it to its destination, signed. */
const deliver = (message: PublishedMessage, url = message.destination, body = message.body) =>
  t.request(new URL(url).pathname + new URL(url).search, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', 'upstash-signature': signQStash({ body, url, key: SIGNING_KEY }) },
  });

const webhookMessages = () => qstash.messages.filter((m) => m.destination.endsWith('/api/jobs/webhook'));

async function hookTo(receiver: WebhookReceiver) {
  const m = await t.member('member');
  const res = await t.request('/api/v1/webhooks', {
    method: 'POST',
    key: m.key,
    json: { url: `${receiver.url}/hook` },
  });
  const hook = (await res.json()) as { webhook_id: string; secret: string };
  receiver.secret = hook.secret;
  return { ...m, hook };
}

describe('webhook deliveries through QStash', () => {
  it('publishes with the retry schedule and failure callback; 500, 500, 200 over QStash retries; a duplicate sends nothing', async () => {
    let n = 0;
    const receiver = await startWebhookReceiver(() => ({ status: ++n <= 2 ? 500 : 200 }));
    try {
      const { key, hook } = await hookTo(receiver);
      qstash.clearMessages();
      expect((await t.request(`/api/v1/webhooks/${hook.webhook_id}/test`, { method: 'POST', key })).status).toBe(202);
      const [message] = webhookMessages();
      expect(message).toBeDefined();
      expect(message!.destination).toBe('http://tooldir.test/api/jobs/webhook');
      expect(message!.headers['upstash-retries']).toBe('6');
      expect(message!.headers['upstash-retry-delay']).toBe('min(86400000, 60000 * pow(5, retried))');
      expect(message!.failureCallback).toBe('http://tooldir.test/api/jobs/webhook?failure=1');
      expect(JSON.parse(message!.body)).toEqual({ delivery_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });

      const first = await deliver(message!);
      expect(first.status).toBe(503);
      expect((await first.json()).error.code).toBe('service_unavailable');
      expect((await deliver(message!)).status).toBe(503);
      const third = await deliver(message!);
      expect(third.status).toBe(200);
      expect(await third.json()).toMatchObject({ ok: true, outcome: 'delivered', attempt: 3, status_code: 200 });
      const duplicate = await deliver(message!);
      expect(duplicate.status).toBe(200);
      expect(await duplicate.json()).toMatchObject({ outcome: 'skipped' });

      expect(receiver.received).toHaveLength(3);
      expect(receiver.received.map((r) => r.verifyError).filter(Boolean)).toEqual([]);
      const log = (await (await t.request(`/api/v1/webhooks/${hook.webhook_id}/deliveries`, { key })).json()).data;
      expect(
        log.map((d: { attempt: number; status_code: number; succeeded: boolean }) => [
          d.attempt,
          d.status_code,
          d.succeeded,
        ]),
      ).toEqual([
        [3, 200, true],
        [2, 500, false],
        [1, 500, false],
      ]);
      // The next retry is QStash's (its expression, not the local queue's test schedule): one minute after the
      // first failure, five after the second. Both stamps come from one statement's now().
      const gap = (d: { at: string; next_retry_at: string }) => Date.parse(d.next_retry_at) - Date.parse(d.at);
      expect(gap(log[2])).toBe(60_000);
      expect(gap(log[1])).toBe(300_000);
    } finally {
      await receiver.close();
    }
  });

  it('a forged or missing signature is 401 and sends nothing', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const { key, hook } = await hookTo(receiver);
      qstash.clearMessages();
      await t.request(`/api/v1/webhooks/${hook.webhook_id}/test`, { method: 'POST', key });
      const [message] = webhookMessages();
      const forged = await t.request('/api/jobs/webhook', {
        method: 'POST',
        body: message!.body,
        headers: {
          'content-type': 'application/json',
          'upstash-signature': signQStash({ body: message!.body, url: message!.destination, key: 'not-our-key' }),
        },
      });
      expect(forged.status).toBe(401);
      const missing = await t.request('/api/jobs/webhook', {
        method: 'POST',
        body: message!.body,
        headers: { 'content-type': 'application/json' },
      });
      expect(missing.status).toBe(401);
      expect(receiver.received).toEqual([]);
      const malformed = await deliver(message!, message!.destination, '{"delivery_id":"nope"}');
      expect(malformed.status).toBe(400);
      expect(receiver.received).toEqual([]);
    } finally {
      await receiver.close();
    }
  });

  it("QStash's failure callback ends a delivery: a late retry sends nothing", async () => {
    const receiver = await startWebhookReceiver(() => ({ status: 500 }));
    try {
      const { key, hook } = await hookTo(receiver);
      qstash.clearMessages();
      await t.request(`/api/v1/webhooks/${hook.webhook_id}/test`, { method: 'POST', key });
      const [message] = webhookMessages();
      expect((await deliver(message!)).status).toBe(503);
      const callbackBody = JSON.stringify({ sourceBody: Buffer.from(message!.body).toString('base64'), status: 500 });
      const callback = await deliver(message!, message!.failureCallback!, callbackBody);
      expect(callback.status).toBe(200);
      expect(await callback.json()).toEqual({ ok: true, outcome: 'delivery_failed' });
      const late = await deliver(message!);
      expect(late.status).toBe(200);
      expect(await late.json()).toMatchObject({ outcome: 'skipped' });
      expect(receiver.received).toHaveLength(1);
      const log = (await (await t.request(`/api/v1/webhooks/${hook.webhook_id}/deliveries`, { key })).json()).data;
      expect(log).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it('a deleted endpoint gets nothing more: a pending retry finds no delivery', async () => {
    const receiver = await startWebhookReceiver(() => ({ status: 500 }));
    try {
      const { key, hook } = await hookTo(receiver);
      qstash.clearMessages();
      await t.request(`/api/v1/webhooks/${hook.webhook_id}/test`, { method: 'POST', key });
      const [message] = webhookMessages();
      expect((await deliver(message!)).status).toBe(503);
      expect((await t.request(`/api/v1/webhooks/${hook.webhook_id}`, { method: 'DELETE', key })).status).toBe(204);
      const retry = await deliver(message!);
      expect(retry.status).toBe(200);
      expect(await retry.json()).toMatchObject({ outcome: 'skipped' });
      expect(receiver.received).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it("a submission's status changes are published to QStash by the job step that made them, and arrive signed", async () => {
    const receiver = await startWebhookReceiver();
    try {
      const { key } = await hookTo(receiver);
      qstash.clearMessages();
      const url = `http://queued-${Date.now()}.localhost:${fixture.port}/`;
      // With an execution context, as on Workers: the publish of the crawl step is deferred with waitUntil.
      const deferred: Array<Promise<unknown>> = [];
      const ctx = {
        waitUntil: (work: Promise<unknown>) => void deferred.push(work),
        passThroughOnException: () => {},
        props: {},
      };
      const submitted = await t.app.request(
        'http://tooldir.test/api/v1/submit-site',
        {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name: `Queued Tool ${Date.now()}`, url }),
        },
        undefined,
        ctx,
      );
      expect(submitted.status).toBe(201);
      const { site_id } = (await submitted.json()) as { site_id: string };
      await Promise.all(deferred);
      const crawl = qstash.messages.find((m) => m.destination.endsWith('/api/jobs/crawl'));
      expect(crawl).toBeDefined();
      expect(webhookMessages()).toEqual([]);
      expect((await deliver(crawl!)).status).toBe(200);
      // The crawl step announced what happened so far: queued, crawling, pending_review.
      const published = webhookMessages();
      expect(published).toHaveLength(3);
      for (const message of published) expect((await deliver(message)).status).toBe(200);
      expect(receiver.received.map((r) => r.verifyError).filter(Boolean)).toEqual([]);
      expect(receiver.received.map((r) => `${r.event!.data.previous_status}→${r.event!.data.status}`).sort()).toEqual(
        ['null→queued', 'queued→crawling', 'crawling→pending_review'].sort(),
      );
      expect(receiver.received.every((r) => r.event!.data.site_id === site_id)).toBe(true);
    } finally {
      await receiver.close();
    }
  });
});
