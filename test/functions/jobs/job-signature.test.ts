// Job endpoints in production mode: QStash signatures (JWT HS256 over URL + body hash) verified on the raw body.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signQStash } from '../../helpers/standins/qstash-signer';
import { createTestApp, ADMIN_TOKEN, type TestApp } from '../../helpers/test-app';

const CURRENT = 'sig_current_0123456789abcdefghij';
const NEXT = 'sig_next_0123456789abcdefghijklmn';
const ORIGIN = 'http://tooldir.test';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { QSTASH_CURRENT_SIGNING_KEY: CURRENT, QSTASH_NEXT_SIGNING_KEY: NEXT } });
});
afterAll(() => t.close());

const unauthorized = { error: { code: 'unauthorized', message: expect.any(String) } };
const body = () => JSON.stringify({ site_id: crypto.randomUUID() });
const post = (path: string, raw: string, signature?: string) =>
  t.request(path, {
    method: 'POST',
    body: raw,
    headers: { 'content-type': 'application/json', ...(signature && { 'upstash-signature': signature }) },
  });

describe('POST /api/jobs/* with QStash signing keys configured', () => {
  it('accepts a delivery signed with the current key (unknown site: a 2xx no-op)', async () => {
    const raw = body();
    const res = await post(
      '/api/jobs/crawl',
      raw,
      signQStash({ body: raw, url: `${ORIGIN}/api/jobs/crawl`, key: CURRENT }),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, outcome: 'skipped', reason: expect.any(String) });
  });

  it('accepts a delivery signed with the next key (key rotation)', async () => {
    const raw = body();
    const res = await post(
      '/api/jobs/review',
      raw,
      signQStash({ body: raw, url: `${ORIGIN}/api/jobs/review`, key: NEXT }),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, outcome: 'skipped', reason: expect.any(String) });
  });

  it('runs the sweep on a signed delivery and reports what it did', async () => {
    const res = await post(
      '/api/jobs/sweep',
      '{}',
      signQStash({ body: '{}', url: `${ORIGIN}/api/jobs/sweep`, key: CURRENT }),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      ok: true,
      outcome: 'swept',
      redispatched: expect.any(Number),
      recovered: expect.any(Number),
      purged: expect.any(Number),
      expiredCredentials: expect.any(Number),
      expiredIdempotencyKeys: expect.any(Number),
      rechecked: expect.any(Number),
      lapsed: expect.any(Number),
      prunedChanges: expect.any(Number),
    });
  });

  it('refuses a tampered body', async () => {
    const raw = body();
    const signature = signQStash({ body: raw, url: `${ORIGIN}/api/jobs/crawl`, key: CURRENT });
    const res = await post('/api/jobs/crawl', body(), signature);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual(unauthorized);
  });

  it('refuses a signature made for another URL', async () => {
    const raw = body();
    const res = await post(
      '/api/jobs/crawl',
      raw,
      signQStash({ body: raw, url: `${ORIGIN}/api/jobs/review`, key: CURRENT }),
    );
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual(unauthorized);
  });

  it('refuses an expired token', async () => {
    const raw = body();
    const old = Math.floor(Date.now() / 1000) - 3600;
    const res = await post(
      '/api/jobs/crawl',
      raw,
      signQStash({ body: raw, url: `${ORIGIN}/api/jobs/crawl`, key: CURRENT, now: old }),
    );
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual(unauthorized);
  });

  it('refuses a token signed with an unknown key, a garbage header and a missing header', async () => {
    const raw = body();
    const wrong = await post(
      '/api/jobs/crawl',
      raw,
      signQStash({ body: raw, url: `${ORIGIN}/api/jobs/crawl`, key: 'sig_someone_else_000000000000' }),
    );
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual(unauthorized);
    const garbage = await post('/api/jobs/crawl', raw, 'not.a.jwt');
    expect(garbage.status).toBe(401);
    expect(await garbage.json()).toEqual(unauthorized);
    const missing = await post('/api/jobs/crawl', raw);
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual(unauthorized);
  });

  it('does not accept the operator token in place of a signature', async () => {
    const res = await t.request('/api/jobs/crawl', {
      method: 'POST',
      key: ADMIN_TOKEN,
      json: { site_id: crypto.randomUUID() },
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: { code: 'unauthorized', message: 'Missing Upstash-Signature header.' } });
  });

  it('verifies first, then validates: a signed body without a UUID site_id is 400', async () => {
    const raw = JSON.stringify({ site_id: 'nope' });
    const res = await post(
      '/api/jobs/crawl',
      raw,
      signQStash({ body: raw, url: `${ORIGIN}/api/jobs/crawl`, key: CURRENT }),
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: { code: 'invalid_request', message: 'site_id must be a UUID' } });
  });

  it('answers the signed failure callback (query string part of the signed URL) with 200', async () => {
    const raw = JSON.stringify({ status: 503, sourceBody: btoa(body()) });
    const url = `${ORIGIN}/api/jobs/crawl?failure=1`;
    const res = await post('/api/jobs/crawl?failure=1', raw, signQStash({ body: raw, url, key: CURRENT }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, outcome: 'failure_logged' });
    const unsigned = await post(
      '/api/jobs/crawl?failure=1',
      raw,
      signQStash({ body: raw, url: `${ORIGIN}/api/jobs/crawl`, key: CURRENT }),
    );
    expect(unsigned.status).toBe(401);
    expect(await unsigned.json()).toEqual({ error: { code: 'unauthorized', message: 'Invalid Upstash-Signature.' } });
  });
});
