import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, createTestApp, type TestApp, type TestResponse } from '../../helpers/test-app';
import { countRows, rawSubmit } from '../../helpers/raw-requests';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('protocol', () => {
  it.each([
    ['GET', '/api/v1/submit-site', 'POST'],
    ['PUT', '/api/v1/sites', 'GET, HEAD, POST'],
    ['DELETE', '/api/v1/sites', 'GET, HEAD, POST'],
    // PATCH files an edit of a live tool (docs/pipeline.md "Edits").
    ['POST', `/api/v1/sites/${crypto.randomUUID()}`, 'GET, HEAD, PATCH'],
    ['DELETE', `/api/v1/sites/${crypto.randomUUID()}`, 'GET, HEAD, PATCH'],
    ['POST', '/api/v1/openapi.json', 'GET, HEAD'],
  ])('%s %s is 405 with Allow: %s', async (method, path, allow) => {
    const res = await t.request(path, { method });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe(allow);
    expect(await res.json()).toEqual({ error: { code: 'method_not_allowed', message: expect.any(String) } });
  });

  it.each(['/api', '/api/v1', '/api/v1/nothing', '/api/v2/sites', '/api/v1/sites/a/b'])(
    '%s is 404 not_found in the error shape',
    async (path) => {
      const res = await t.request(path);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
    },
  );

  it('every response carries X-Request-Id, and a well-formed incoming one is echoed', async () => {
    for (const path of ['/api/v1/sites', '/api/nothing', '/llms.txt', '/api/v1/openapi.json']) {
      expect((await t.request(path)).headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
    const echoed = await t.request('/api/v1/sites', { headers: { 'x-request-id': 'client-req-12345' } });
    expect(echoed.headers.get('x-request-id')).toBe('client-req-12345');
    const unsafe = await t.request('/api/v1/sites', { headers: { 'x-request-id': 'bad id\u0001<script>' } });
    expect(unsafe.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('errors never leak internals: the request id is in the header, not the body', async () => {
    const res = await t.request('/api/v1/sites');
    const text = await res.text();
    expect(text).not.toMatch(/stack|at \w+ \(|node_modules/);
    expect(Object.keys(JSON.parse(text).error).sort()).toEqual(['code', 'message']);
  });
});

describe('openapi.json, docs and llms.txt', () => {
  it('serves an OpenAPI 3.1 document generated from the routes', async () => {
    const res = await t.request('/api/v1/openapi.json');
    expect(res.status).toBe(200);
    const doc = await res.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.info.title).toMatch(/Directory API/i);
    const submit = doc.paths['/api/v1/submit-site'].post;
    expect(Object.keys(submit.responses).sort()).toEqual([
      '201',
      '400',
      '401',
      '402',
      '409',
      '413',
      '422',
      '429',
      '500',
      '503',
    ]);
    expect(Object.keys(doc.paths['/api/v1/sites'].post.responses)).toContain('402');
    expect(Object.keys(doc.paths['/api/v1/sites'].get.responses).sort()).toEqual([
      '200',
      '400',
      '401',
      '429',
      '500',
      '503',
    ]);
    expect(Object.keys(doc.paths['/api/v1/sites/{site_id}'].get.responses).sort()).toEqual([
      '200',
      '401',
      '404',
      '429',
      '500',
      '503',
    ]);
    expect(doc.components.schemas.SubmitRequest.properties.plan.enum).toEqual([
      'basic',
      'featured',
      'sponsored',
      'pro',
    ]);
    expect(doc.components.schemas.PendingPaymentRecord.required).toEqual(
      expect.arrayContaining(['site_id', 'checkout_url', 'expires_at', 'reason', 'status']),
    );
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('serves the API reference and llms.txt', async () => {
    const docs = await t.request('/api/v1/docs');
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('/api/v1/openapi.json');
    const llms = await t.request('/llms.txt');
    expect(llms.headers.get('content-type')).toMatch(/text\/plain/);
    const text = await llms.text();
    for (const needle of ['/api/v1/submit-site', 'Authorization: Bearer', '/api/mcp/mcp', 'per minute'])
      expect(text).toContain(needle);
  });
});

// Hostile inputs (odd bodies, headers, paths and query strings): each answer is below 500, in the reference's
// error shape when it is an error, carries X-Request-Id, and a refused submit leaves no record and no quota use.
async function expectSane(res: TestResponse, label: string): Promise<void> {
  expect(res.status, label).toBeLessThan(500);
  expect(res.headers.get('x-request-id'), label).toBeTruthy();
  // 402 is the pending-payment record, not an error body (reference 4.1).
  if (res.status >= 400 && res.status !== 402 && res.headers.get('content-type')?.includes('json')) {
    const body = await res.json();
    expect(Object.keys(body), label).toEqual(['error']);
    expect(Object.keys(body.error).sort(), label).toEqual(['code', 'message']);
  }
}

const deep = (n: number) => `{"name":"Deep Tool","url":"https://deep.example","x":${'['.repeat(n)}${']'.repeat(n)}}`;

describe('submit bodies that must be refused cleanly', () => {
  it.each([
    ['lone high surrogate in name', '{"name":"A\\ud800B","url":"https://s1.example"}'],
    ['lone low surrogate in name', '{"name":"A\\udfffB","url":"https://s2.example"}'],
    ['surrogate in host', '{"name":"Sur Host","url":"https://a\\ud800.example"}'],
    ['NUL in name', '{"name":"Nul\\u0000Tool","url":"https://n1.example"}'],
    ['NUL in url', '{"name":"Nul Url","url":"https://n2.example/\\u0000"}'],
    ['NUL in email', '{"name":"Nul Mail","url":"https://n3.example","email":"a\\u0000b@example.com"}'],
    ['raw NUL byte', '{"name":"Raw\u0000Nul","url":"https://n4.example"}'],
    ['huge number as plan', '{"name":"Big Plan","url":"https://b1.example","plan":1e999}'],
    ['huge number as name', '{"name":1e999,"url":"https://b2.example"}'],
    ['array body', '[]'],
    ['deep array body', `${'['.repeat(20000)}${']'.repeat(20000)}`],
    ['prototype keys', '{"__proto__":{"name":"x"},"constructor":{"prototype":{}},"url":"https://p.example"}'],
    ['credentials in url', '{"name":"Cred Tool","url":"https://u:p@c.example"}'],
    ['javascript url', '{"name":"Js Tool","url":"javascript:alert(1)"}'],
    ['data url', '{"name":"Data Tool","url":"data:text/html,hi"}'],
    ['no-slash https url', '{"name":"Slash Tool","url":"https:example.com"}'],
    ['single-label host', '{"name":"Label Tool","url":"https://intranet/"}'],
    ['port out of range', '{"name":"Port Tool","url":"https://p.example:65536/"}'],
    ['empty object', '{}'],
    ['truncated', '{"name":"Trunc'],
    ['plan in capitals', '{"name":"Caps Plan","url":"https://cp.example","plan":"BASIC"}'],
  ])('%s', async (label, body) => {
    const m = await t.member('member');
    const res = await rawSubmit(t, m.key, body, 'application/json');
    expect(res.status, label).toBe(400);
    await expectSane(res, label);
    expect(await countRows(t, 'sites', m.accountId)).toBe(0);
    expect(await countRows(t, 'pending_submissions', m.accountId)).toBe(0);
    expect(await countRows(t, 'quota_usage', m.accountId)).toBe(0);
  });

  it('deep nesting inside an accepted object, a BOM, duplicate keys and invalid UTF-8 are handled (no 5xx)', async () => {
    const m = await t.member('none');
    const bodies: Array<[string, string | Uint8Array<ArrayBuffer>]> = [
      ['deep nesting in an unknown field', deep(20000)],
      ['BOM', `\ufeff{"name":"Bom Tool","url":"https://bom-${crypto.randomUUID().slice(0, 6)}.example"}`],
      [
        'duplicate keys',
        `{"name":"Dup One","name":"Dup ${crypto.randomUUID().slice(0, 6)}","url":"https://dup-${crypto.randomUUID().slice(0, 6)}.example"}`,
      ],
      [
        'invalid UTF-8',
        new Uint8Array([
          ...new TextEncoder().encode('{"name":"Bad '),
          0xff,
          0xfe,
          ...new TextEncoder().encode(`","url":"https://utf-${crypto.randomUUID().slice(0, 6)}.example"}`),
        ]),
      ],
    ];
    for (const [label, body] of bodies) {
      const res = await t.request('/api/v1/submit-site', {
        method: 'POST',
        key: m.key,
        headers: { 'content-type': 'application/json' },
        body,
      });
      await expectSane(res, label);
    }
  });
});

describe('headers, paths and query strings', () => {
  it('two Authorization headers (joined by the runtime) are 401, even when one is valid', async () => {
    const m = await t.member('member');
    const headers = new Headers();
    headers.append('authorization', `Bearer ${m.key}`);
    headers.append('authorization', 'Bearer tdk_0000000000000000000000');
    const res = await t.request('/api/v1/sites', { headers });
    expect(res.status).toBe(401);
    await expectSane(res, 'two auth headers');
  });

  it('a very long Authorization header is 401', async () => {
    const res = await t.request('/api/v1/sites', { headers: { authorization: `Bearer tdk_${'a'.repeat(8000)}` } });
    expect(res.status).toBe(401);
    await expectSane(res, 'long auth');
  });

  it.each([
    '/api/v1/sites/%00',
    '/api/v1/sites/..%2F..%2Fadmin',
    `/api/v1/sites/${crypto.randomUUID()}%00`,
    `/api/v1/sites/${'a'.repeat(4000)}`,
    '/api/v1/sites/%E0%A4%A',
    '/api/v1/sites/%ff',
    `/api/v1/sites/{${crypto.randomUUID()}}`,
    '/api/v1/sites/1%27%20OR%20%271%27=%271',
  ])('GET %s is 404 not_found', async (path) => {
    const m = await t.member('member');
    const res = await t.request(path, { key: m.key });
    expect(res.status).toBe(404);
    await expectSane(res, path);
  });

  it.each([
    'limit=1&limit=2',
    'offset=1&offset=2',
    'url=https://a.example&url=https://b.example',
    'limit=1e2',
    'limit=%20',
    'offset=-0',
    'limit=99999999999999999999',
  ])('GET /api/v1/sites?%s is 400 invalid_request', async (query) => {
    const m = await t.member('member');
    const res = await t.request(`/api/v1/sites?${query}`, { key: m.key });
    expect(res.status).toBe(400);
    await expectSane(res, query);
  });
});

// A trailing slash on a known path: a 405 never lists the refused method in Allow (the router does not serve
// the slashed form), and nothing answers 5xx.
describe('trailing slash on known paths', () => {
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
});
