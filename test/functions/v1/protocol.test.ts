import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app';

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

  it.each(['/api', '/api/v1', '/api/v1/nothing', '/api/v2/sites', '/api/v1/sites/a/b'])('%s is 404 not_found in the error shape', async (path) => {
    const res = await t.request(path);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
  });

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
    expect(Object.keys(submit.responses).sort()).toEqual(['201', '400', '401', '402', '409', '413', '422', '429', '500', '503']);
    expect(Object.keys(doc.paths['/api/v1/sites'].post.responses)).toContain('402');
    expect(Object.keys(doc.paths['/api/v1/sites'].get.responses).sort()).toEqual(['200', '400', '401', '429', '500', '503']);
    expect(Object.keys(doc.paths['/api/v1/sites/{site_id}'].get.responses).sort()).toEqual(['200', '401', '404', '429', '500', '503']);
    expect(doc.components.schemas.SubmitRequest.properties.plan.enum).toEqual(['basic', 'featured', 'sponsored', 'pro']);
    expect(doc.components.schemas.PendingPaymentRecord.required).toEqual(
      expect.arrayContaining(['site_id', 'checkout_url', 'expires_at', 'reason', 'status']),
    );
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('serves the interactive reference and llms.txt', async () => {
    const docs = await t.request('/api/v1/docs');
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('/api/v1/openapi.json');
    const llms = await t.request('/llms.txt');
    expect(llms.headers.get('content-type')).toMatch(/text\/plain/);
    const text = await llms.text();
    for (const needle of ['/api/v1/submit-site', 'Authorization: Bearer', '/api/mcp/mcp', 'per minute']) expect(text).toContain(needle);
  });
});
