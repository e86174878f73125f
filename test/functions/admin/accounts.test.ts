import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../../helpers/test-app';
import { expectErrorBody, operator } from '../../helpers/raw-requests';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const email = () => `op-${crypto.randomUUID().slice(0, 8)}@example.com`;
const admin = (path: string, init: { method?: string; json?: unknown } = {}) =>
  t.request(path, { ...init, key: ADMIN_TOKEN });

describe('operator API', () => {
  it('creates an account (tier defaults to none) and a member account with an active membership', async () => {
    const a = await admin('/api/v1/admin/accounts', { method: 'POST', json: { email: email() } });
    expect(a.status).toBe(201);
    expect(await a.json()).toMatchObject({ account_id: expect.any(String), tier: 'none', membership_status: 'none' });
    const b = await admin('/api/v1/admin/accounts', {
      method: 'POST',
      json: { email: email(), tier: 'memberFeature' },
    });
    expect(await b.json()).toMatchObject({ tier: 'memberFeature', membership_status: 'active' });
  });

  it('refuses a duplicate e-mail with 409 and bad bodies with 400', async () => {
    const e = email();
    await admin('/api/v1/admin/accounts', { method: 'POST', json: { email: e } });
    expect((await admin('/api/v1/admin/accounts', { method: 'POST', json: { email: e.toUpperCase() } })).status).toBe(
      409,
    );
    for (const json of [{}, { email: 'x' }, { email: email(), tier: 'gold' }]) {
      const res = await admin('/api/v1/admin/accounts', { method: 'POST', json });
      expect(res.status).toBe(400);
      expect((await res.json()).error.code).toBe('invalid_request');
    }
  });

  it('issues a key shown once, and revokes it (204, then 404 for an unknown key)', async () => {
    const { account_id } = await (
      await admin('/api/v1/admin/accounts', { method: 'POST', json: { email: email() } })
    ).json();
    const res = await admin(`/api/v1/admin/accounts/${account_id}/keys`, { method: 'POST', json: { name: 'ci' } });
    expect(res.status).toBe(201);
    const key = await res.json();
    expect(key).toEqual({
      key_id: expect.any(String),
      key: expect.stringMatching(/^tdk_/),
      prefix: key.key.slice(0, 12),
      name: 'ci',
    });
    expect((await admin(`/api/v1/admin/keys/${key.key_id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await admin(`/api/v1/admin/keys/${crypto.randomUUID()}`, { method: 'DELETE' })).status).toBe(404);
    expect((await admin('/api/v1/admin/keys/not-a-uuid', { method: 'DELETE' })).status).toBe(404);
    expect((await admin(`/api/v1/admin/accounts/${crypto.randomUUID()}/keys`, { method: 'POST' })).status).toBe(404);
  });

  it('sets a membership, which changes what submit decides', async () => {
    const m = await t.member('none');
    const put = await admin(`/api/v1/admin/accounts/${m.accountId}/membership`, {
      method: 'PUT',
      json: { tier: 'member', status: 'active', current_period_end: '2099-01-01T00:00:00Z' },
    });
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({
      tier: 'member',
      membership_status: 'active',
      current_period_end: '2099-01-01T00:00:00.000Z',
    });
    const submit = await t.request('/api/v1/submit-site', {
      method: 'POST',
      key: m.key,
      json: {
        name: `Op ${crypto.randomUUID().slice(0, 6)}`,
        url: `https://${crypto.randomUUID().slice(0, 8)}.example`,
      },
    });
    expect(submit.status).toBe(201);
    const past = await admin(`/api/v1/admin/accounts/${m.accountId}/membership`, {
      method: 'PUT',
      json: { tier: 'member', current_period_end: '2000-01-01T00:00:00Z' },
    });
    expect(past.status).toBe(200);
    const after = await t.request('/api/v1/submit-site', {
      method: 'POST',
      key: m.key,
      json: {
        name: `Op ${crypto.randomUUID().slice(0, 6)}`,
        url: `https://${crypto.randomUUID().slice(0, 8)}.example`,
      },
    });
    expect((await after.json()).reason).toBe('no_membership');
    for (const json of [
      {},
      { tier: 'x' },
      { tier: 'member', current_period_end: 'tomorrow' },
      { tier: 'member', status: 'weird' },
    ]) {
      expect((await admin(`/api/v1/admin/accounts/${m.accountId}/membership`, { method: 'PUT', json })).status).toBe(
        400,
      );
    }
    expect(
      (
        await admin(`/api/v1/admin/accounts/${crypto.randomUUID()}/membership`, {
          method: 'PUT',
          json: { tier: 'none' },
        })
      ).status,
    ).toBe(404);
  });

  it.each([
    ['POST', '/api/v1/admin/accounts'],
    ['POST', `/api/v1/admin/accounts/${crypto.randomUUID()}/keys`],
    ['DELETE', `/api/v1/admin/keys/${crypto.randomUUID()}`],
    ['PUT', `/api/v1/admin/accounts/${crypto.randomUUID()}/membership`],
  ])('%s %s: a wrong or missing token, or an API key, is 401', async (method, path) => {
    const m = await t.member('member');
    for (const key of [undefined, 'wrong-token-wrong-token', m.key, `${ADMIN_TOKEN}x`]) {
      const res = await t.request(path, { method, key, json: { email: email(), tier: 'member' } });
      expect(res.status).toBe(401);
      expect((await res.json()).error.code).toBe('unauthorized');
    }
  });
});

describe('operator API rate limit', () => {
  it('is limited per client IP before the token is checked', async () => {
    const ip = { 'cf-connecting-ip': '203.0.113.77' };
    const results = await Promise.all(
      Array.from({ length: 121 }, () =>
        t.request('/api/v1/admin/accounts', {
          method: 'POST',
          headers: { ...ip, authorization: 'Bearer guess' },
          json: {},
        }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(120);
    expect(statuses.filter((s) => s === 429)).toHaveLength(1);
    const otherIp = await t.request('/api/v1/admin/accounts', {
      method: 'POST',
      headers: { 'cf-connecting-ip': '203.0.113.78' },
      key: ADMIN_TOKEN,
      json: { email: email() },
    });
    expect(otherIp.status).toBe(201);
  });
});

// Odd content types on the operator API are 400 invalid_request (or served), never 500.
describe('operator API: odd content types never answer 5xx', () => {
  it('POST /admin/accounts/{id}/keys with a text/plain body is 400 invalid_request, not 500', async () => {
    const m = await t.member('none');
    const res = await operator(t, `/api/v1/admin/accounts/${m.accountId}/keys`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: '{"name":"ci"}',
    });
    expect(res.status).toBe(400);
    await expectErrorBody(res, 'invalid_request');
  });

  it('POST /admin/accounts/{id}/keys with a body but no Content-Type is 400 invalid_request (or a created key), not 500', async () => {
    const m = await t.member('none');
    // Bytes, not a string: a string body would get a default text/plain type from the Request constructor.
    const body = new TextEncoder().encode('{"name":"ci"}');
    const res = await operator(t, `/api/v1/admin/accounts/${m.accountId}/keys`, { method: 'POST', body });
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(res.status).not.toBe(500);
    expect([201, 400]).toContain(res.status);
  });

  it.each([
    ['POST', 'accounts', () => JSON.stringify({ email: `op-${crypto.randomUUID().slice(0, 8)}@example.com` })],
    ['PUT', 'membership', () => JSON.stringify({ tier: 'member' })],
    ['POST', 'keys', () => JSON.stringify({ name: 'ci' })],
  ] as const)('%s %s with Content-Type "application/json;" is not 500', async (method, what, body) => {
    const m = await t.member('none');
    const path =
      what === 'accounts'
        ? '/api/v1/admin/accounts'
        : what === 'membership'
          ? `/api/v1/admin/accounts/${m.accountId}/membership`
          : `/api/v1/admin/accounts/${m.accountId}/keys`;
    const res = await operator(t, path, { method, headers: { 'content-type': 'application/json;' }, body: body() });
    expect(res.status).toBeLessThan(500);
  });
});

// Operator API inputs that pass schema validation but that PostgreSQL refuses (a NUL in a key name, year 0000)
// are 400 invalid_request, never 500.
describe('operator API: inputs the database refuses are 400, not 500', () => {
  it('POST /admin/accounts/{id}/keys with a NUL in the key name is 400 invalid_request', async () => {
    const m = await t.member('none');
    const res = await operator(t, `/api/v1/admin/accounts/${m.accountId}/keys`, {
      method: 'POST',
      json: { name: 'ci\u0000key' },
    });
    expect(res.status).toBe(400);
    await expectErrorBody(res, 'invalid_request');
  });

  it.each(['0000-01-01T00:00:00Z', '0000-12-31T23:59:59Z'])(
    'PUT membership with current_period_end %s is 400 invalid_request',
    async (end) => {
      const m = await t.member('none');
      const res = await operator(t, `/api/v1/admin/accounts/${m.accountId}/membership`, {
        method: 'PUT',
        json: { tier: 'member', current_period_end: end },
      });
      expect(res.status).toBe(400);
      await expectErrorBody(res, 'invalid_request');
    },
  );
});
