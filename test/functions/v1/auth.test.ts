import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../../helpers/test-app';
import { openApiDocument } from '../../tools/openapi-document';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

// The operations come from the generated openapi.json (the document GET /api/v1/openapi.json serves), not from a
// hand-kept list: a new operation that declares a security requirement but is reachable without one fails here, and
// one that declares none at all fails the first test.
type Operation = {
  method: string;
  path: string;
  security?: Array<Record<string, string[]>>;
  responses: Record<string, unknown>;
};
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const document = (await openApiDocument()) as { paths: Record<string, Record<string, Operation>> };
const operations: Operation[] = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([method]) => METHODS.includes(method))
    .map(([method, op]) => ({ ...op, method: method.toUpperCase(), path })),
);
const schemesOf = (op: Operation) => (op.security ?? []).flatMap((requirement) => Object.keys(requirement));
const isProtected = (op: Operation) => schemesOf(op).length > 0;
const protectedOps = operations.filter(isProtected);
const publicOps = operations.filter((op) => Array.isArray(op.security) && !isProtected(op));
const label = (op: Operation) => `${op.method} ${op.path}`;

/** A concrete URL of an operation: ids that exist nowhere (a check that ran before auth would answer 404, not 401). */
const urlOf = (op: Operation) =>
  op.path.replace(/\{(\w+)\}/g, (_m, name: string) => (name === 'slug' ? 'no-such-tool' : crypto.randomUUID()));
let ip = 0;
/** Each call from its own address, so the per-IP limit never answers before authentication does. */
const call = (op: Operation, authorization?: string) => {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'cf-connecting-ip': `198.18.${Math.floor(++ip / 250) % 250}.${ip % 250}`,
  };
  if (authorization) headers.authorization = authorization;
  const body = ['POST', 'PUT', 'PATCH'].includes(op.method)
    ? JSON.stringify({ name: 'Acme', url: 'https://acme.example' })
    : undefined;
  return t.request(urlOf(op), { method: op.method, headers, body });
};
const expectUnauthorized = async (res: Awaited<ReturnType<typeof call>>) => {
  expect(res.status).toBe(401);
  expect(await res.json()).toEqual({ error: { code: 'unauthorized', message: expect.stringMatching(/\S/) } });
  expect(res.headers.get('www-authenticate') ?? '').toMatch(/^Bearer\b/i);
};

describe('every operation of openapi.json states its authentication, and the protected ones demand it', () => {
  it('every operation declares `security` (empty for a public one); the hand-checked ones are among the protected', () => {
    expect(operations.filter((op) => !Array.isArray(op.security)).map(label)).toEqual([]);
    // The document is the source of the list: it cannot shrink to nothing unnoticed.
    expect(protectedOps.map(label)).toEqual(
      expect.arrayContaining([
        'POST /api/v1/submit-site',
        'POST /api/v1/sites',
        'GET /api/v1/sites',
        'GET /api/v1/sites/{site_id}',
        'POST /api/v1/admin/accounts',
      ]),
    );
    expect(publicOps.map(label)).toEqual(expect.arrayContaining(['GET /api/v1/tools', 'GET /api/v1/tools/{slug}']));
    expect(new Set(protectedOps.flatMap(schemesOf))).toEqual(new Set(['apiKey', 'operatorToken']));
    for (const op of protectedOps) expect(Object.keys(op.responses), label(op)).toContain('401');
  });

  it.each(protectedOps.map((op) => [label(op), op] as const))(
    '%s without credentials is 401 unauthorized with a Bearer challenge',
    async (_l, op) => {
      await expectUnauthorized(await call(op));
    },
  );

  it.each(protectedOps.map((op) => [label(op), op] as const))('%s with a bad key is 401', async (_l, op) => {
    for (const authorization of [
      'Bearer tdk_AAAAAAAAAAAAAAAAAAAAAA',
      'Bearer nonsense',
      'Basic dGRrOng=',
      'tdk_AAAAAAAAAAAAAAAAAAAAAA',
    ]) {
      await expectUnauthorized(await call(op, authorization));
    }
  });

  it.each(protectedOps.map((op) => [label(op), op] as const))(
    '%s refuses the credential of the other scheme',
    async (_l, op) => {
      // An operator endpoint does not take a member's key, and a member endpoint does not take the operator token.
      const other = schemesOf(op).includes('operatorToken') ? (await t.member('member')).key : ADMIN_TOKEN;
      await expectUnauthorized(await call(op, `Bearer ${other}`));
    },
  );

  it.each(publicOps.map((op) => [label(op), op] as const))(
    '%s (security: []) answers without credentials',
    async (_l, op) => {
      const res = await call(op);
      expect(res.status, label(op)).not.toBe(401);
      expect(res.headers.get('www-authenticate')).toBeNull();
      // Success, or the contract's not-found for an id that exists nowhere: never a demand for credentials.
      if (res.status === 404) expect((await res.json()).error.code).toBe('not_found');
      else expect(res.status).toBe(200);
    },
  );
});

describe('API key authentication', () => {
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
    expect(
      (
        await t.request('/api/v1/submit-site', {
          method: 'POST',
          key: m.key,
          json: { name: 'Acme X', url: 'https://x1.example' },
        })
      ).status,
    ).toBe(401);
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
