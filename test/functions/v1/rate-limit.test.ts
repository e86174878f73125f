import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client';
import { createTestApp, type TestApp, uniqueUrl } from '../../helpers/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const submit = (key: string) => t.request('/api/v1/submit-site', { method: 'POST', key, json: { name: `Tool ${crypto.randomUUID().slice(0, 8)}`, url: uniqueUrl() } });

describe('rate limits', () => {
  it('submit: 10 per minute per key, with headers; the 11th is 429 with Retry-After and no side effect', async () => {
    const m = await t.member('none');
    const results = await Promise.all(Array.from({ length: 10 }, () => submit(m.key)));
    expect(results.every((r) => r.status === 402)).toBe(true);
    const remaining = results.map((r) => Number(r.headers.get('ratelimit-remaining'))).sort((a, b) => a - b);
    expect(remaining).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(results[0]!.headers.get('ratelimit-limit')).toBe('10');
    const limited = await submit(m.key);
    expect(limited.status).toBe(429);
    expect(await limited.json()).toEqual({ error: { code: 'rate_limited', message: expect.any(String) } });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    expect(Number(limited.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
    const [row] = await queryRows<{ n: number }>(t.deps.db, sql`SELECT count(*)::int AS n FROM pending_submissions WHERE account_id = ${m.accountId}`);
    expect(Number(row!.n)).toBe(10);
  });

  it('reads: 60 per minute per key, separate from the submit bucket and from other keys', async () => {
    const a = await t.member('member');
    const b = await t.member('member');
    const reads = await Promise.all(Array.from({ length: 60 }, () => t.request('/api/v1/sites', { key: a.key })));
    expect(reads.every((r) => r.status === 200)).toBe(true);
    expect((await t.request('/api/v1/sites', { key: a.key })).status).toBe(429);
    expect((await t.request(`/api/v1/sites/${crypto.randomUUID()}`, { key: a.key })).status).toBe(429);
    expect((await submit(a.key)).status).toBe(201);
    expect((await t.request('/api/v1/sites', { key: b.key })).status).toBe(200);
  });
});

describe('rate limiter failure', () => {
  it('serves the request and logs when the limiter fails (quota stays enforced by the database)', async () => {
    const lines: string[] = [];
    const { createUpstashLimiter } = await import('../../../src/adapters/ratelimit/upstash');
    const { createLogger } = await import('../../../src/log');
    const log = createLogger('info', (l) => lines.push(l));
    // The Upstash adapter fails open: point it at a closed loopback port.
    const limiter = createUpstashLimiter({ url: 'http://127.0.0.1:9', token: 't', log });
    const result = await limiter.limit('read', 'k');
    expect(result.success).toBe(true);
    expect(lines.join('\n')).toMatch(/rate limiter (failed|timed out)/);
  });
});
