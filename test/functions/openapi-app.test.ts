// A route's declared rate limit (functions/openapi-app.ts, functions/middleware/rate-limit.ts) counts after the
// route's authentication and schema validation, right before the handler: a request refused as 400 counts against no
// bucket, and past the limit a bad request is still told what is wrong (400) before it is told to wait (429).
import { createRoute, z } from '@hono/zod-openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenApiApp } from '../../functions/openapi-app';
import { rateLimit } from '../../functions/middleware/rate-limit';
import { afterValidation } from '../../functions/middleware/after-validation';
import { rateLimitPolicies } from '../../src/rate-limits/policies';
import { createTestApp, type TestApp, uniqueUrl } from '../helpers/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const READS = rateLimitPolicies.read.limit;
const SUBMITS = rateLimitPolicies.submit.limit;

describe('a declared rate limit counts after validation', () => {
  it('GET /api/v1/sites: refused queries are not counted; past the limit a bad query is 400, a good one 429', async () => {
    const m = await t.member('member');
    for (let i = 0; i < READS + 10; i++) {
      const res = await t.request('/api/v1/sites?limit=abc', { key: m.key });
      expect(res.status).toBe(400);
      expect(res.headers.get('ratelimit-remaining')).toBeNull();
    }
    const first = await t.request('/api/v1/sites', { key: m.key });
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-remaining')).toBe(String(READS - 1));
    for (let i = 1; i < READS; i++) expect((await t.request('/api/v1/sites', { key: m.key })).status).toBe(200);
    expect((await t.request('/api/v1/sites?limit=abc', { key: m.key })).status).toBe(400);
    const refused = await t.request('/api/v1/sites', { key: m.key });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ error: { code: 'rate_limited', message: expect.any(String) } });
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('POST /api/v1/submit-site: a malformed Idempotency-Key or body is 400 and not counted; 401 comes before both', async () => {
    const m = await t.member('none');
    const body = () => ({ name: `Tool ${crypto.randomUUID().slice(0, 8)}`, url: uniqueUrl() });
    for (let i = 0; i < SUBMITS + 2; i++) {
      const badKey = await t.request('/api/v1/submit-site', {
        method: 'POST',
        key: m.key,
        json: body(),
        headers: { 'idempotency-key': 'clé' },
      });
      expect(badKey.status).toBe(400);
      expect((await badKey.json()).error.message).toContain('Idempotency-Key');
      const badBody = await t.request('/api/v1/submit-site', { method: 'POST', key: m.key, json: { name: 42 } });
      expect(badBody.status).toBe(400);
    }
    // Both wrong: the body is answered first, as before the limit was declared on the route.
    const both = await t.request('/api/v1/submit-site', {
      method: 'POST',
      key: m.key,
      json: { name: 42 },
      headers: { 'idempotency-key': 'clé' },
    });
    expect((await both.json()).error.message).not.toContain('Idempotency-Key');
    const noKey = await t.request('/api/v1/submit-site', { method: 'POST', json: body() });
    expect(noKey.status).toBe(401);
    expect(noKey.headers.get('ratelimit-remaining')).toBeNull();
    const submitted = await t.request('/api/v1/submit-site', { method: 'POST', key: m.key, json: body() });
    expect(submitted.status).toBe(402);
    expect(submitted.headers.get('ratelimit-remaining')).toBe(String(SUBMITS - 1));
  });

  it('GET /api/v1/tools: a per-IP policy, counted after the query is valid', async () => {
    const ip = { 'cf-connecting-ip': '203.0.113.77' };
    for (let i = 0; i < rateLimitPolicies.public.limit + 5; i++) {
      expect((await t.request('/api/v1/tools?limit=0', { headers: ip })).status).toBe(400);
    }
    const res = await t.request(`/api/v1/tools?q=${crypto.randomUUID()}`, { headers: ip });
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-remaining')).toBe(String(rateLimitPolicies.public.limit - 1));
  });
});

describe('OpenApiApp', () => {
  const route = (middleware: ReturnType<typeof rateLimit>[]) =>
    createRoute({
      method: 'get',
      path: '/x',
      middleware,
      request: { query: z.object({ n: z.string() }) },
      responses: { 200: { description: 'ok' } },
    });

  it('refuses a route that lists a middleware to run before validation after one that runs after it', () => {
    const app = new OpenApiApp();
    const plain: ReturnType<typeof rateLimit> = async (_c, next) => next();
    expect(() => app.openapi(route([rateLimit('public'), plain]), (c) => c.text('ok'))).toThrow(
      /at the end of the list/,
    );
    expect(() => app.openapi(route([plain, rateLimit('public')]), (c) => c.text('ok'))).not.toThrow();
  });

  it('runs the declared middleware in order: the early ones, the validation, the late ones, the handler', async () => {
    const app = new OpenApiApp();
    const ran: string[] = [];
    const early: ReturnType<typeof rateLimit> = async (_c, next) => {
      ran.push('early');
      await next();
    };
    const late = (name: string) =>
      afterValidation(async (c, next) => {
        ran.push(name);
        if (c.req.query('n') === 'stop') return c.text('stopped', 429);
        await next();
        ran.push(`${name} after`);
      });
    app.openapi(route([early, late('late 1'), late('late 2')]), (c) => {
      ran.push('handler');
      return c.text('ok');
    });
    const invalid = await app.request('/x');
    expect(invalid.status).toBe(400);
    expect(ran).toEqual(['early']);
    ran.length = 0;
    const ok = await app.request('/x?n=1');
    expect([ok.status, await ok.text()]).toEqual([200, 'ok']);
    expect(ran).toEqual(['early', 'late 1', 'late 2', 'handler', 'late 2 after', 'late 1 after']);
    ran.length = 0;
    const stopped = await app.request('/x?n=stop');
    expect([stopped.status, await stopped.text()]).toEqual([429, 'stopped']);
    expect(ran).toEqual(['early', 'late 1']);
  });
});
