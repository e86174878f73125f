// Webhook deliveries end to end on PGlite: transitions to live with retries, redirects, the test ping, and a name
// re-pointed at loopback after registration (WEBHOOK_ALLOW_PRIVATE off) refused before any packet.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureSite } from '../../helpers/fixture-site';
import { createPipelineApp, networkViolations, type PipelineApp } from '../../helpers/pipeline-harness';
import { loopbackOnlyWebhookTransport, startWebhookReceiver } from '../../helpers/webhook-receiver';
import { redirectsNotFollowed, startToolSite, testPing, transitionsWithRetries } from './delivery-scenarios';

const transport = loopbackOnlyWebhookTransport();
let t: PipelineApp;
let fixture: FixtureSite;
beforeAll(async () => {
  t = await createPipelineApp({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' }, overrides: { webhooks: transport } });
  fixture = await startToolSite();
});
afterAll(async () => {
  await t.close();
  await fixture.close();
  expect(transport.violations).toEqual([]);
  expect(networkViolations).toEqual([]);
});

describe('webhook deliveries (PGlite)', () => {
  it('every transition to live arrives signed; 500, 500, 200 is three attempts and one success', () =>
    transitionsWithRetries({ t, fixture }));
  it('redirects are not followed', () => redirectsNotFollowed({ t, fixture }));
  it('a test ping arrives once, signed, and is logged', () => testPing({ t, fixture }));
});

describe('WEBHOOK_ALLOW_PRIVATE off', () => {
  const dns: Record<string, string[]> = { 'rebind.example': ['93.184.215.14'] };
  const guarded = loopbackOnlyWebhookTransport(dns);
  let app: PipelineApp;
  beforeAll(async () => {
    app = await createPipelineApp({ overrides: { webhooks: guarded } });
  });
  afterAll(async () => {
    await app.close();
    expect(guarded.violations).toEqual([]);
  });

  it('a loopback receiver cannot be registered, and a name re-pointed at loopback later gets no packet', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const m = await app.member('member');
      const refused = await app.request('/api/v1/webhooks', {
        method: 'POST',
        key: m.key,
        json: { url: `${receiver.url}/hook` },
      });
      expect(refused.status).toBe(400);
      expect((await refused.json()).error.message).toMatch(/not public/);

      const created = await app.request('/api/v1/webhooks', {
        method: 'POST',
        key: m.key,
        json: { url: 'http://rebind.example/hook' },
      });
      expect(created.status).toBe(201);
      const { webhook_id } = await created.json();
      dns['rebind.example'] = ['127.0.0.1'];
      expect((await app.request(`/api/v1/webhooks/${webhook_id}/test`, { method: 'POST', key: m.key })).status).toBe(
        202,
      );
      await app.settle();
      const log = (await (await app.request(`/api/v1/webhooks/${webhook_id}/deliveries`, { key: m.key })).json()).data;
      expect(log).toHaveLength(7);
      for (const attempt of log)
        expect(attempt).toMatchObject({
          status_code: null,
          succeeded: false,
          error: expect.stringMatching(/not public/),
        });
      expect(JSON.stringify(log)).not.toContain('127.0.0.1');
      expect(guarded.fetched).toEqual([]);
      expect(receiver.received).toEqual([]);
    } finally {
      await receiver.close();
    }
  });
});
