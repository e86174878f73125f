// /api/v1/webhooks through the public surface (PGlite): create, list, delete, deliveries, test ping, the cap of 5
// under concurrency, malformed input and refused targets. Nothing here sends a webhook (the queue is not bound);
// deliveries are tested in test/e2e/webhooks/. The transport refuses any lookup or connection not in its table.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { loopbackOnlyWebhookTransport } from '../../helpers/webhook-receiver';

const transport = loopbackOnlyWebhookTransport({
  'hooks.example': ['93.184.215.14'],
  'intranet.example': ['10.0.0.7'],
  'sneaky.example': ['93.184.215.14', '127.0.0.1'],
});
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ overrides: { webhooks: transport } });
});
afterAll(async () => {
  await t.close();
  expect(transport.violations).toEqual([]);
});

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const create = (key: string, json: unknown) => t.request('/api/v1/webhooks', { method: 'POST', key, json });
const list = async (key: string) =>
  (await (await t.request('/api/v1/webhooks', { key })).json()).data as Array<{ webhook_id: string; url: string }>;

describe('POST /api/v1/webhooks', () => {
  it('registers an endpoint and shows its whsec_ secret only in the create answer', async () => {
    const m = await t.member();
    const res = await create(m.key, { url: 'https://hooks.example/tooldir' });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toEqual({
      webhook_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: 'https://hooks.example/tooldir',
      events: ['site.status_changed'],
      secret: expect.stringMatching(/^whsec_[0-9A-Za-z]{32}$/),
      created_at: expect.stringMatching(ISO),
    });
    const listed = await (await t.request('/api/v1/webhooks', { key: m.key })).json();
    expect(listed).toEqual({
      data: [{ webhook_id: body.webhook_id, url: body.url, events: body.events, created_at: body.created_at }],
    });
    expect(JSON.stringify(listed)).not.toContain(body.secret);
  });

  it('accepts an explicit event list and gives each endpoint its own secret', async () => {
    const m = await t.member();
    const a = await (
      await create(m.key, { url: 'https://hooks.example/a', events: ['site.status_changed', 'site.status_changed'] })
    ).json();
    const b = await (await create(m.key, { url: 'https://hooks.example/b' })).json();
    expect(a.events).toEqual(['site.status_changed']);
    expect(a.secret).not.toBe(b.secret);
  });

  it.each([
    ['no url', {}],
    ['url not a string', { url: 42 }],
    ['empty url', { url: '  ' }],
    ['not a URL', { url: 'hooks.example/x' }],
    ['ftp', { url: 'ftp://hooks.example/x' }],
    ['javascript', { url: 'javascript:alert(1)' }],
    ['credentials', { url: 'https://user:pw@hooks.example/x' }],
    ['too long', { url: `https://hooks.example/${'a'.repeat(2100)}` }],
    ['unknown event', { url: 'https://hooks.example/x', events: ['site.deleted'] }],
    ['empty events', { url: 'https://hooks.example/x', events: [] }],
    ['events not an array', { url: 'https://hooks.example/x', events: 'site.status_changed' }],
  ])('refuses %s with 400 invalid_request and creates nothing', async (_label, json) => {
    const m = await t.member();
    const res = await create(m.key, json);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: { code: 'invalid_request', message: expect.any(String) } });
    expect(await list(m.key)).toEqual([]);
  });

  it('refuses a body that is not JSON, or not an object', async () => {
    const m = await t.member();
    const broken = await t.request('/api/v1/webhooks', {
      method: 'POST',
      key: m.key,
      body: '{"url":',
      headers: { 'content-type': 'application/json' },
    });
    expect(broken.status).toBe(400);
    expect((await broken.json()).error.code).toBe('invalid_json');
    const array = await create(m.key, ['https://hooks.example/x']);
    expect(array.status).toBe(400);
    expect((await array.json()).error.code).toBe('invalid_request');
    expect(await list(m.key)).toEqual([]);
  });

  it.each([
    ['a name resolving to a private address', 'https://intranet.example/hook'],
    ['a name with one loopback address among public ones', 'https://sneaky.example/hook'],
    ['a private literal', 'https://10.0.0.7/hook'],
    ['a loopback literal', 'http://127.0.0.1:8080/hook'],
    ['an IPv6 loopback literal', 'http://[::1]/hook'],
    ['an IPv4-mapped loopback', 'http://[::ffff:127.0.0.1]/hook'],
    ['localhost', 'http://localhost/hook'],
    ['a cloud metadata address', 'http://169.254.169.254/latest'],
    ['a non-standard port', 'https://hooks.example:8443/hook'],
  ])('refuses %s with WEBHOOK_ALLOW_PRIVATE off, without a packet', async (_label, url) => {
    const m = await t.member();
    const res = await create(m.key, { url });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error.code).toBe('invalid_request');
    expect(body.error.message).toMatch(/^url refused: /);
    // What our resolver answered is never echoed.
    expect(body.error.message).not.toMatch(/10\.0\.0\.7|127\.0\.0\.1|93\.184/);
    expect(await list(m.key)).toEqual([]);
  });

  it('refuses a name that does not resolve in time with 400, not a 5xx', async () => {
    const hanging = loopbackOnlyWebhookTransport();
    const slow = await createTestApp({
      overrides: { webhooks: { ...hanging, timeoutMs: 50, resolver: () => new Promise<string[]>(() => {}) } },
    });
    try {
      const m = await slow.member();
      const res = await slow.request('/api/v1/webhooks', {
        method: 'POST',
        key: m.key,
        json: { url: 'https://slow.example/hook' },
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        error: { code: 'invalid_request', message: 'url refused: the host name could not be resolved in time' },
      });
    } finally {
      await slow.close();
    }
    expect(hanging.fetched).toEqual([]);
  });

  it('allows at most 5 endpoints per account, also when 8 creates race', async () => {
    const m = await t.member();
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => create(m.key, { url: `https://hooks.example/${i}` })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 201, 201, 201, 201, 409, 409, 409]);
    const refused = results.find((r) => r.status === 409)!;
    expect(await refused.json()).toEqual({
      error: { code: 'too_many_webhooks', message: expect.stringMatching(/at most 5/) },
    });
    const hooks = await list(m.key);
    expect(hooks).toHaveLength(5);
    // Deleting one frees a place (10 changes: the webhooks rate-limit policy is exactly spent).
    expect((await t.request(`/api/v1/webhooks/${hooks[2]!.webhook_id}`, { method: 'DELETE', key: m.key })).status).toBe(
      204,
    );
    const again = await create(m.key, { url: 'https://hooks.example/again' });
    expect(again.status).toBe(201);
    const { webhook_id: againId } = (await again.json()) as { webhook_id: string };
    expect((await list(m.key)).map((w) => w.webhook_id).sort()).toEqual(
      [...hooks.filter((_, i) => i !== 2).map((w) => w.webhook_id), againId].sort(),
    );
    // The cap is per account.
    const other = await t.member();
    expect((await create(other.key, { url: 'https://hooks.example/other' })).status).toBe(201);
    expect((await list(other.key)).map((w) => w.url)).toEqual(['https://hooks.example/other']);
  });

  it('requires an API key', async () => {
    const res = await t.request('/api/v1/webhooks', { method: 'POST', json: { url: 'https://hooks.example/x' } });
    expect(res.status).toBe(401);
    expect((await res.json()).error.code).toBe('unauthorized');
    const listing = await t.request('/api/v1/webhooks');
    expect(listing.status).toBe(401);
    expect(await listing.json()).toEqual({ error: { code: 'unauthorized', message: expect.any(String) } });
  });
});

describe('DELETE, deliveries and test ping', () => {
  it('deletes one of your endpoints (204), then it is gone', async () => {
    const m = await t.member();
    const { webhook_id } = await (await create(m.key, { url: 'https://hooks.example/del' })).json();
    const res = await t.request(`/api/v1/webhooks/${webhook_id}`, { method: 'DELETE', key: m.key });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect(await list(m.key)).toEqual([]);
    const again = await t.request(`/api/v1/webhooks/${webhook_id}`, { method: 'DELETE', key: m.key });
    expect(again.status).toBe(404);
    expect((await again.json()).error.code).toBe('not_found');
  });

  it("another account's endpoint, an unknown id and a malformed id are 404 everywhere and change nothing", async () => {
    const owner = await t.member();
    const stranger = await t.member();
    const { webhook_id } = await (await create(owner.key, { url: 'https://hooks.example/mine' })).json();
    for (const id of [webhook_id, crypto.randomUUID(), 'not-a-uuid', '%27%3B--']) {
      for (const [method, path] of [
        ['DELETE', `/api/v1/webhooks/${id}`],
        ['GET', `/api/v1/webhooks/${id}/deliveries`],
        ['POST', `/api/v1/webhooks/${id}/test`],
      ] as const) {
        const res = await t.request(path, { method, key: stranger.key });
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(await res.json()).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
      }
    }
    expect((await list(owner.key)).map((w) => w.webhook_id)).toEqual([webhook_id]);
    expect(
      (await (await t.request(`/api/v1/webhooks/${webhook_id}/deliveries`, { key: owner.key })).json()).data,
    ).toEqual([]);
  });

  it('queues a signed ping (202) with its event id; a fresh endpoint has no deliveries yet', async () => {
    const m = await t.member();
    const { webhook_id } = await (await create(m.key, { url: 'https://hooks.example/ping' })).json();
    const deliveries = await t.request(`/api/v1/webhooks/${webhook_id}/deliveries`, { key: m.key });
    expect(deliveries.status).toBe(200);
    expect(await deliveries.json()).toEqual({ data: [] });
    const res = await t.request(`/api/v1/webhooks/${webhook_id}/test`, { method: 'POST', key: m.key });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({
      webhook_id,
      event_id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
      created: expect.stringMatching(ISO),
    });
  });

  it('limits changes and pings through the webhooks policy (10 per minute per account)', async () => {
    const m = await t.member();
    const { webhook_id } = await (await create(m.key, { url: 'https://hooks.example/limit' })).json();
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++)
      statuses.push((await t.request(`/api/v1/webhooks/${webhook_id}/test`, { method: 'POST', key: m.key })).status);
    expect(statuses).toEqual([202, 202, 202, 202, 202, 202, 202, 202, 202, 429]);
    const limited = await t.request(`/api/v1/webhooks/${webhook_id}/test`, { method: 'POST', key: m.key });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await limited.json()).error.code).toBe('rate_limited');
  });
});

describe('openapi.json', () => {
  it('documents every webhook endpoint', async () => {
    const doc = await (await t.request('/api/v1/openapi.json')).json();
    const operations = {
      'POST /api/v1/webhooks': ['201', '400', '401', '409'],
      'GET /api/v1/webhooks': ['200', '401'],
      'DELETE /api/v1/webhooks/{webhook_id}': ['204', '401', '404'],
      'GET /api/v1/webhooks/{webhook_id}/deliveries': ['200', '401', '404'],
      'POST /api/v1/webhooks/{webhook_id}/test': ['202', '401', '404'],
    };
    for (const [operation, codes] of Object.entries(operations)) {
      const [method, path] = operation.split(' ') as [string, string];
      const op = doc.paths[path]?.[method.toLowerCase()];
      expect(op?.security, operation).toEqual([{ apiKey: [] }]);
      expect(Object.keys(op?.responses ?? {}), operation).toEqual(expect.arrayContaining([...codes, '429']));
    }
    expect(JSON.stringify(doc.components.schemas.CreatedWebhook)).toContain('whsec_');
    expect(doc.components.schemas.Webhook.required).toEqual(
      expect.arrayContaining(['webhook_id', 'url', 'events', 'created_at']),
    );
  });
});
