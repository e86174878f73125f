// Review finding F3: the 405 fallback matches known paths with an optional trailing slash (`/?$`), but the
// router does not serve the slashed form. So `GET /api/v1/sites/` answers 405 "GET is not allowed ...
// Allowed: GET, HEAD" and `POST /api/v1/submit-site/` answers 405 "Allowed: POST": an Allow header that
// names the very method just refused. A 405 must never list the request's own method.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../../helpers/test-app';

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await createTestApp();
  key = (await t.member('member')).key;
});
afterAll(() => t.close());

describe('trailing slash on known paths', () => {
  it.each([
    ['GET', '/api/v1/sites/'],
    ['GET', `/api/v1/sites/${crypto.randomUUID()}/`],
    ['POST', '/api/v1/submit-site/'],
    ['POST', '/api/v1/sites/'],
    ['GET', '/api/v1/openapi.json/'],
    ['POST', '/api/v1/admin/accounts/'],
  ])('%s %s: a 405 never names the refused method in Allow', async (method, path) => {
    const headers = { 'cf-connecting-ip': `192.0.2.${Math.floor(Math.random() * 250)}` };
    const res = await t.request(path, { method, key: path.includes('/admin/') ? ADMIN_TOKEN : key, headers });
    if (res.status === 405) {
      const allow = (res.headers.get('allow') ?? '').split(/,\s*/);
      expect(allow).not.toContain(method);
    } else {
      // Served like the unslashed path, redirected, or 404 not_found: all fine, but never a 5xx.
      expect(res.status).toBeLessThan(500);
    }
  });
});
