import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../../src/accounts/api-keys';
import { queryRows } from '../../../src/db/client';
import { createTestApp, type TestApp, uniqueUrl } from '../../helpers/test-app';
import { callTool, connectMcp, resultJson } from '../mcp/mcp-client';
import { PageClient, csrfOf, newEmail } from '../pages/account-client';
import { describeApiLimits, describePolicy, describeRate } from '../../../src/rate-limits/describe';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const submit = (key: string) =>
  t.request('/api/v1/submit-site', {
    method: 'POST',
    key,
    json: { name: `Tool ${crypto.randomUUID().slice(0, 8)}`, url: uniqueUrl() },
  });

describe('rate limits', () => {
  it('submit: 10 per minute per account, with headers; the 11th is 429 with Retry-After and no side effect', async () => {
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
    const [row] = await queryRows<{ n: number }>(
      t.deps.db,
      sql`SELECT count(*)::int AS n FROM pending_submissions WHERE account_id = ${m.accountId}`,
    );
    expect(Number(row!.n)).toBe(10);
  });

  it('reads: 60 per minute per account, separate from the submit bucket and from other accounts', async () => {
    const a = await t.member('member');
    const b = await t.member('member');
    const reads = await Promise.all(Array.from({ length: 60 }, () => t.request('/api/v1/sites', { key: a.key })));
    expect(reads.every((r) => r.status === 200)).toBe(true);
    expect((await t.request('/api/v1/sites', { key: a.key })).status).toBe(429);
    expect((await t.request(`/api/v1/sites/${crypto.randomUUID()}`, { key: a.key })).status).toBe(429);
    expect((await submit(a.key)).status).toBe(201);
    expect((await t.request('/api/v1/sites', { key: b.key })).status).toBe(200);
  });

  it("submit: all of an account's keys share one bucket (REST and MCP); another account's does not", async () => {
    const m = await t.member('none');
    const keys = [
      m.key,
      ...(await Promise.all(Array.from({ length: 4 }, () => createApiKey(t.deps, m.accountId, 'extra')))).map(
        (k) => k.key,
      ),
    ];
    // Ten submits spread over five keys and both surfaces use up the account's ten.
    for (let i = 0; i < 8; i++) expect((await submit(keys[i % keys.length]!)).status).toBe(402);
    const mcp = await connectMcp(t, { key: keys[4] });
    for (let i = 0; i < 2; i++) {
      const result = await callTool(mcp, 'submit_site', {
        name: `Tool ${crypto.randomUUID().slice(0, 8)}`,
        url: uniqueUrl(),
      });
      expect(result.structuredContent).toMatchObject({ status: 'pending_payment' });
    }
    for (const key of keys) expect((await submit(key)).status).toBe(429);
    expect(
      resultJson(
        await callTool(mcp, 'submit_site', { name: `Tool ${crypto.randomUUID().slice(0, 8)}`, url: uniqueUrl() }),
      ),
    ).toMatchObject({
      error: { code: 'rate_limited' },
    });
    // A key created after the bucket filled is in it too.
    expect((await submit((await createApiKey(t.deps, m.accountId, 'late')).key)).status).toBe(429);
    const [row] = await queryRows<{ n: number }>(
      t.deps.db,
      sql`SELECT count(*)::int AS n FROM pending_submissions WHERE account_id = ${m.accountId}`,
    );
    expect(Number(row!.n)).toBe(10);
    expect((await submit((await t.member('none')).key)).status).toBe(402);
    await mcp.close();
  });

  it("reads: all of an account's keys share one bucket (REST and MCP); another account's does not", async () => {
    const m = await t.member('member');
    const other = await createApiKey(t.deps, m.accountId, 'second');
    for (let i = 0; i < 50; i++)
      expect((await t.request('/api/v1/sites?limit=1', { key: i % 2 ? m.key : other.key })).status).toBe(200);
    const mcp = await connectMcp(t, { key: other.key });
    for (let i = 0; i < 10; i++) {
      expect(resultJson(await callTool(mcp, 'get_site_status', { site_id: crypto.randomUUID() }))).toMatchObject({
        error: { code: 'not_found' },
      });
    }
    const refusedRest = await t.request(`/api/v1/sites/${crypto.randomUUID()}`, { key: m.key });
    expect(refusedRest.status).toBe(429);
    expect(refusedRest.headers.get('ratelimit-limit')).toBe('60');
    expect(resultJson(await callTool(mcp, 'get_site_status', { site_id: crypto.randomUUID() }))).toMatchObject({
      error: { code: 'rate_limited' },
    });
    expect((await t.request('/api/v1/sites', { key: (await t.member('member')).key })).status).toBe(200);
    await mcp.close();
  });
});

describe('named policies', () => {
  it('membership checkout has its own per-account bucket, not the submit bucket', async () => {
    const m = await t.member('none');
    for (let i = 0; i < 10; i++) expect((await submit(m.key)).status).toBe(402);
    expect((await submit(m.key)).status).toBe(429);
    const checkout = () =>
      t.request('/api/v1/membership/checkout', { method: 'POST', key: m.key, json: { tier: 'member' } });
    // Local payments sell memberships through the local checkout page: each link is counted by its own bucket.
    const first = await checkout();
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-remaining')).toBe('9');
    for (let i = 0; i < 9; i++) expect((await checkout()).status).toBe(200);
    expect((await checkout()).status).toBe(429);
  });

  it("key creation on the account page has its own per-account bucket; the account's submits are untouched", async () => {
    const client = new PageClient(t);
    await client.signIn(newEmail());
    const create = async () => {
      const { html } = await client.page('/account/keys');
      return client.request('/account/keys', { form: { _csrf: csrfOf(html), name: 'k' } });
    };
    let key = '';
    for (let i = 0; i < 10; i++) {
      expect((await create()).status).toBe(303);
      key ||= /value="(tdk_[0-9A-Za-z]{22})"/.exec((await client.page('/account/keys')).html)?.[1] ?? '';
    }
    const refused = await create();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.text()).toContain(describePolicy('apiKeyCreate'));
    const submitted = await submit(key);
    expect(submitted.status).toBe(402);
    expect(submitted.headers.get('ratelimit-remaining')).toBe('9');
  });
});

describe('texts built from the policy table', () => {
  it('openapi.json, llms.txt, the MCP tool descriptions and the README state the limits of the table', async () => {
    const doc = (await (await t.request('/api/v1/openapi.json')).json()) as {
      info: { description: string };
      paths: Record<
        string,
        Record<string, { description?: string; responses: Record<string, { description: string }> }>
      >;
    };
    expect(doc.info.description).toContain(describeApiLimits());
    expect(doc.paths['/api/v1/tools']!.get!.description).toContain(describePolicy('public'));
    expect(doc.paths['/api/v1/tools']!.get!.responses['429']!.description).toContain(describeRate('public'));
    expect(doc.paths['/api/v1/membership/checkout']!.post!.description).toContain(describePolicy('membershipCheckout'));
    expect(await (await t.request('/llms.txt')).text()).toContain(describeApiLimits());
    const mcp = await connectMcp(t);
    const { tools } = await mcp.listTools();
    const descriptionOf = (name: string) => tools.find((tool) => tool.name === name)?.description ?? '';
    expect(descriptionOf('submit_site')).toContain(describePolicy('submit'));
    expect(descriptionOf('search_tools')).toContain(describePolicy('public'));
    expect(descriptionOf('get_tool')).toContain(describePolicy('public'));
    await mcp.close();
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    expect(readme).toContain(describeApiLimits());
    expect(readme).toContain(describePolicy('outboundLinks'));
    expect(readme).toContain(describePolicy('badges'));
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
    const result = await limiter.limit({ name: 'read', limit: 60, windowSeconds: 60 }, 'k');
    expect(result.success).toBe(true);
    expect(lines.join('\n')).toMatch(/rate limiter (failed|timed out)/);
  });
});
