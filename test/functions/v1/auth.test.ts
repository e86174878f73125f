import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../../helpers/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const endpoints = [
  ['POST', '/api/v1/submit-site'],
  ['POST', '/api/v1/sites'],
  ['GET', '/api/v1/sites'],
  ['GET', `/api/v1/sites/${crypto.randomUUID()}`],
] as const;
const body = JSON.stringify({ name: 'Acme', url: 'https://acme.example' });
const call = (method: string, path: string, headers: Record<string, string>) =>
  t.request(path, { method, headers: { 'content-type': 'application/json', ...headers }, body: method === 'POST' ? body : undefined });

describe('API key authentication', () => {
  it.each(endpoints)('%s %s without a key is 401 unauthorized', async (method, path) => {
    const res = await call(method, path, {});
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: { code: 'unauthorized', message: expect.any(String) } });
  });

  it.each([
    ['a malformed key', 'Bearer nonsense'],
    ['an unknown well-formed key', 'Bearer tdk_AAAAAAAAAAAAAAAAAAAAAA'],
    ['another scheme', 'Basic dGRrOng='],
    ['no scheme', 'tdk_AAAAAAAAAAAAAAAAAAAAAA'],
    ['the operator token', `Bearer ${ADMIN_TOKEN}`],
  ])('%s is 401', async (_label, authorization) => {
    for (const [method, path] of endpoints) expect((await call(method, path, { authorization })).status).toBe(401);
  });

  it('a valid key in the query string is refused, even together with a header', async () => {
    const m = await t.member('member');
    for (const param of ['key', 'api_key', 'token', 'access_token']) {
      const res = await t.request(`/api/v1/sites?${param}=${m.key}`, {});
      expect(res.status).toBe(401);
      expect((await res.json()).error.message).toMatch(/Authorization header/);
      expect((await t.request(`/api/v1/sites?${param}=${m.key}`, { key: m.key })).status).toBe(401);
    }
  });

  it('a revoked key answers 401 at once', async () => {
    const m = await t.member('member');
    expect((await t.request('/api/v1/sites', { key: m.key })).status).toBe(200);
    const revoke = await t.request(`/api/v1/admin/keys/${m.keyId}`, { method: 'DELETE', key: ADMIN_TOKEN });
    expect(revoke.status).toBe(204);
    expect((await t.request('/api/v1/sites', { key: m.key })).status).toBe(401);
    expect((await t.request('/api/v1/submit-site', { method: 'POST', key: m.key, json: { name: 'Acme X', url: 'https://x1.example' } })).status).toBe(401);
  });

  it('keys are tdk_ + 22 base62 characters and stored only as a SHA-256 hash', async () => {
    const m = await t.member('member');
    expect(m.key).toMatch(/^tdk_[0-9A-Za-z]{22}$/);
    const rows = await t.deps.db.query.apiKeys.findMany();
    const row = rows.find((r) => r.id === m.keyId)!;
    expect(row.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toContain(m.key);
    expect(row.prefix).toBe(m.key.slice(0, 12));
  });

  it('records last_used_at off the response path', async () => {
    const m = await t.member('member');
    await t.request('/api/v1/sites', { key: m.key });
    await new Promise((r) => setTimeout(r, 200));
    const row = (await t.deps.db.query.apiKeys.findMany()).find((r) => r.id === m.keyId)!;
    expect(row.lastUsedAt).toBeInstanceOf(Date);
  });
});

// A 401 carries a Bearer challenge (RFC 9110 section 15.5.2, RFC 6750 section 3): generic HTTP clients and
// proxies rely on it to know which scheme to offer.
describe('401 carries a Bearer challenge', () => {
  it.each([
    ['GET', '/api/v1/sites', undefined],
    ['GET', `/api/v1/sites/${crypto.randomUUID()}`, 'Bearer tdk_0000000000000000000000'],
    ['POST', '/api/v1/submit-site', 'Basic dXNlcjpwYXNz'],
    ['POST', '/api/v1/admin/accounts', 'Bearer wrong-operator-token-000000'],
  ])('%s %s (authorization %s) -> 401 with WWW-Authenticate: Bearer ...', async (method, path, authorization) => {
    const headers: Record<string, string> = { 'cf-connecting-ip': `198.18.0.${Math.floor(Math.random() * 250)}` };
    if (authorization) headers.authorization = authorization;
    const res = await t.request(path, { method, headers, json: method === 'POST' ? {} : undefined });
    expect(res.status).toBe(401);
    expect((await res.json()).error.code).toBe('unauthorized');
    expect(res.headers.get('www-authenticate') ?? '').toMatch(/^Bearer\b/i);
  });
});
