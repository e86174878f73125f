// Review finding F1: Content-Type values that the jsonObjectBody middleware accepts but @hono/zod-openapi's
// media-type gate refuses (HTTPException 415) fall through onError as a 500 internal_error. The issue says
// "no 5xx for any input" and "a non-JSON content type ... 400 invalid_request".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { countRows, expectErrorBody, operator, rawSubmit, uniqueName, uniqueUrl } from './review-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const submitBody = () => JSON.stringify({ name: uniqueName(), url: uniqueUrl() });

describe('submit: odd JSON content types never answer 5xx', () => {
  it.each([
    'application/json;', // empty parameter list after the semicolon
    'application/json ;charset=utf-8', // whitespace before the semicolon (RFC 9110 allows OWS there)
    'application/json; charset', // parameter without a value
    'application/json;charset=utf-8;', // trailing semicolon
    'application/vnd.tooldir.v1+json', // structured +json suffix with a digit in the subtype
  ])('Content-Type %j is answered (201) or refused with 400 invalid_request, never 500', async (contentType) => {
    const m = await t.member('member');
    const res = await rawSubmit(t, m.key, submitBody(), contentType);
    expect(res.status).not.toBe(500);
    expect([201, 400]).toContain(res.status);
    if (res.status === 400) {
      await expectErrorBody(res, 'invalid_request');
      expect(await countRows(t, 'sites', m.accountId)).toBe(0);
      expect(await countRows(t, 'quota_usage', m.accountId)).toBe(0);
    }
  });
});

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
