// Job endpoints in local mode (no QStash keys): closed to the world, open to the operator token only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, ADMIN_TOKEN, type TestApp } from '../../helpers/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('POST /api/jobs/* without QStash keys', () => {
  it('refuses anonymous and wrongly authenticated calls with 401', async () => {
    for (const step of ['crawl', 'review', 'sweep']) {
      const anonymous = await t.request(`/api/jobs/${step}`, {
        method: 'POST',
        json: { site_id: crypto.randomUUID() },
      });
      expect(anonymous.status).toBe(401);
      expect(await anonymous.json()).toEqual({ error: { code: 'unauthorized', message: expect.any(String) } });
      const wrong = await t.request(`/api/jobs/${step}`, { method: 'POST', key: 'x'.repeat(40), json: {} });
      expect(wrong.status).toBe(401);
    }
  });

  it('runs a step for the operator token', async () => {
    const res = await t.request('/api/jobs/sweep', { method: 'POST', key: ADMIN_TOKEN, json: {} });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true, outcome: 'swept' });
  });

  it('answers 405 to other methods and 413 to huge bodies', async () => {
    const wrongMethod = await t.request('/api/jobs/crawl', { method: 'GET' });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
    expect(await wrongMethod.json()).toEqual({
      error: { code: 'method_not_allowed', message: expect.stringMatching(/is not allowed on/) },
    });
    const huge = await t.request('/api/jobs/crawl', {
      method: 'POST',
      key: ADMIN_TOKEN,
      body: 'x'.repeat(70_000),
      headers: { 'content-type': 'application/json', 'content-length': '70000' },
    });
    expect(huge.status).toBe(413);
  });
});
