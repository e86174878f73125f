// Review finding F9: 401 answers carry no WWW-Authenticate challenge. RFC 9110 §15.5.2: "The server generating
// a 401 response MUST send a WWW-Authenticate header field containing at least one challenge"; RFC 6750 §3
// names the Bearer form. Generic HTTP clients and proxies rely on it to know which scheme to offer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

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
