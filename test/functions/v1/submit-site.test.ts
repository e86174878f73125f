import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const submit = (key: string, json: unknown) => t.request('/api/v1/submit-site', { method: 'POST', key, json });
const uniqueUrl = () => `https://tool-${crypto.randomUUID().slice(0, 8)}.example`;

describe('POST /api/v1/submit-site', () => {
  it('queues a member submission with quota', async () => {
    const m = await t.member('member');
    const res = await submit(m.key, { name: 'Acme Writer', url: uniqueUrl() });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toEqual({ site_id: expect.any(String), status: 'queued', via: 'membership', quota: { used_today: 1, daily_limit: 5 } });
  });
});
