// openapi.json as clients and linters read it: every operation named and described, public ones saying so
// (`security: []`), every timestamp declared in one format (ISO 8601, date-time) but the site record's submitted_at
// (the reference's database style, as a pattern), RateLimit-*/Retry-After declared where the service sends them,
// and a generated client whose submit body leaves `plan` optional. Real answers are validated against the
// declared schemas with ajv (JSON Schema 2020-12, formats checked), timestamps included.
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimitPolicies } from '../../../src/rate-limits/policies';
import { errorCodes } from '../../../src/errors';
import { membershipTiers, planNames } from '../../../src/catalog/plans';
import { DB_STYLE_TIMESTAMP, ISO_TIMESTAMP } from '../../../src/timestamp-schemas';
import { seedTools } from '../../helpers/live-tools';
import { operator } from '../../helpers/raw-requests';
import { createTestApp, type TestApp, type TestResponse, uniqueName, uniqueUrl } from '../../helpers/test-app';
import { generateContractTypes } from '../../tools/openapi-document';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

let t: TestApp;
let doc: Json;
let ajv: InstanceType<typeof Ajv2020>;
beforeAll(async () => {
  t = await createTestApp();
  doc = await (await t.request('/api/v1/openapi.json')).json();
  // OpenAPI's `example` is no JSON Schema keyword: not strict. Formats (date-time, uuid, email, uri) are checked.
  ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ ...doc, $id: 'openapi.json' });
});
afterAll(() => t.close());

const operations = () =>
  Object.entries(doc.paths as Record<string, Record<string, Json>>).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ path, method, op })),
  );
const pointer = (...parts: string[]) => parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

/** Validates a real answer against the schema openapi.json declares for it. */
async function expectDeclared(res: TestResponse, path: string, method: string): Promise<Json> {
  const body = await res.json();
  const validate = ajv.getSchema(
    `openapi.json#/${pointer('paths', path, method, 'responses', String(res.status), 'content', 'application/json', 'schema')}`,
  );
  expect(validate, `${method} ${path} declares ${res.status}`).toBeDefined();
  const ok = validate!(body);
  expect(ok ? [] : validate!.errors, `${method.toUpperCase()} ${path} → ${res.status}`).toEqual([]);
  return body;
}

describe('openapi.json, as linters and generators read it', () => {
  it('names and describes every operation, declares every tag, and carries a license', () => {
    const declared = new Set((doc.tags as Array<{ name: string }>).map((tag) => tag.name));
    for (const { path, method, op } of operations()) {
      expect(op.operationId, `${method} ${path}`).toMatch(/^[a-z][A-Za-z]+$/);
      expect(op.description, `${method} ${path}`).toBeTruthy();
      for (const tag of op.tags) expect(declared.has(tag), tag).toBe(true);
      expect(Array.isArray(op.security), `${method} ${path} states its security`).toBe(true);
    }
    const ids = operations().map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.info.license).toMatchObject({ name: expect.any(String), url: expect.stringMatching(/^http/) });
  });

  it('says public operations are public: an empty security requirement', () => {
    for (const path of ['/api/v1/tools', '/api/v1/tools/{slug}', '/api/v1/categories'])
      expect(doc.paths[path].get.security).toEqual([]);
    expect(doc.paths['/api/v1/submit-site'].post.security).toEqual([{ apiKey: [] }]);
  });

  it("declares every timestamp it writes as ISO 8601 (date-time, with its exact pattern), except the site record's submitted_at", () => {
    const found: string[] = [];
    const walk = (node: Json, where: string) => {
      if (!node || typeof node !== 'object') return;
      for (const [key, value] of Object.entries(node as Record<string, Json>)) {
        // What the service writes; a request may send any ISO 8601 date-time with an offset (admin membership).
        if (key === 'requestBody') continue;
        if (key === 'properties') {
          for (const [name, schema] of Object.entries(value as Record<string, Json>)) {
            if (/^(at|created)$|_at$|_end$/.test(name)) {
              const branches = (schema.anyOf ?? [schema]).filter((s: Json) => s.type !== 'null');
              const declared = branches
                .map((s: Json) => (s.format ? `${s.format} ${s.pattern}` : s.pattern ? `pattern ${s.pattern}` : 'none'))
                .join('|');
              found.push(`${where}.${name}: ${declared}`);
            }
          }
        }
        walk(value, `${where}.${key}`);
      }
    };
    walk(doc, '#');
    expect(found.length).toBeGreaterThan(20);
    const other = found.filter((f) => !f.endsWith(`: date-time ${ISO_TIMESTAMP.source}`));
    // Only the site record (and the detail read that extends it) keeps the reference's database style.
    expect(other.map((f) => f.replace(/^.*\.schemas\.(\w+)\..*?(\w+): /, '$1.$2: '))).toEqual([
      `SiteDetail.submitted_at: pattern ${DB_STYLE_TIMESTAMP.source}`,
      `SiteRecord.submitted_at: pattern ${DB_STYLE_TIMESTAMP.source}`,
    ]);
  });

  it('declares RateLimit-* on the answers of limited operations and Retry-After on 429 and 503', () => {
    const header = (path: string, method: string, status: string) =>
      Object.keys(doc.paths[path][method].responses[status].headers ?? {});
    expect(header('/api/v1/tools', 'get', '200')).toEqual([
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
    ]);
    expect(header('/api/v1/tools', 'get', '429')).toEqual([
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'Retry-After',
    ]);
    expect(header('/api/v1/submit-site', 'post', '201')).toEqual(
      expect.arrayContaining(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']),
    );
    expect(header('/api/v1/submit-site', 'post', '401')).not.toContain('RateLimit-Limit'); // refused before the limiter
    expect(header('/api/v1/submit-site', 'post', '409')).toContain('Retry-After'); // idempotency_in_progress
    expect(header('/api/v1/sites/{site_id}', 'get', '503')).toContain('Retry-After');
    expect(doc.components.headers['Retry-After']).toMatchObject({ schema: { type: 'integer' } });
    for (const { path, method, op } of operations()) {
      if (!op.responses['429']) continue;
      for (const name of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After']) {
        expect(op.responses['429'].headers?.[name], `${method} ${path} 429 ${name}`).toBeDefined();
      }
    }
  });

  it('generates a client (openapi-typescript) whose submit body leaves plan optional', async () => {
    const types = await generateContractTypes(doc);
    const body = /SubmitRequest: \{([\s\S]*?)\n {8}\};/.exec(types)?.[1] ?? '';
    expect(body).toMatch(/\bname: string;/);
    expect(body).toMatch(/\bplan\?: "basic" \| "featured" \| "sponsored" \| "pro";/);
  });
});

describe('real answers match what openapi.json declares for them (ajv), timestamps and headers included', () => {
  const submit = (key: string, json: unknown) => t.request('/api/v1/submit-site', { method: 'POST', key, json });

  it('submit (201 and 402), the detail of both, the list: DB-style submitted_at on site records, ISO 8601 everywhere else', async () => {
    const member = await t.member('member');
    const queued = await submit(member.key, { name: uniqueName(), url: uniqueUrl() });
    expect(queued.status).toBe(201);
    for (const name of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'])
      expect(queued.headers.get(name), name).toMatch(/^\d+$/);
    const { site_id } = await expectDeclared(queued, '/api/v1/submit-site', 'post');
    const detail = await expectDeclared(
      await t.request(`/api/v1/sites/${site_id}`, { key: member.key }),
      '/api/v1/sites/{site_id}',
      'get',
    );
    expect(detail.submitted_at).toMatch(DB_STYLE_TIMESTAMP);
    expect(detail.history[0].at).toMatch(ISO_TIMESTAMP);
    await expectDeclared(await t.request('/api/v1/sites', { key: member.key }), '/api/v1/sites', 'get');

    const payer = await t.member('none');
    const pending = await expectDeclared(
      await submit(payer.key, { name: uniqueName(), url: uniqueUrl() }),
      '/api/v1/submit-site',
      'post',
    );
    expect(pending.submitted_at).toMatch(ISO_TIMESTAMP);
    expect(pending.expires_at).toMatch(ISO_TIMESTAMP);
    await expectDeclared(
      await t.request(`/api/v1/sites/${pending.site_id}`, { key: payer.key }),
      '/api/v1/sites/{site_id}',
      'get',
    );
  });

  it('the directory reads and the operator API', async () => {
    const [tool] = await seedTools(t.deps.db, [
      { name: 'Contract Writer', description: 'Checks answers against the contract.' },
    ]);
    const ip = { headers: { 'cf-connecting-ip': '192.0.2.200' } };
    const detail = await expectDeclared(
      await t.request(`/api/v1/tools/${tool!.slug}`, ip),
      '/api/v1/tools/{slug}',
      'get',
    );
    expect(detail.published_at).toMatch(ISO_TIMESTAMP);
    await expectDeclared(await t.request('/api/v1/tools?q=contract', ip), '/api/v1/tools', 'get');
    await expectDeclared(await t.request('/api/v1/categories', ip), '/api/v1/categories', 'get');
    await expectDeclared(
      await operator(t, '/api/v1/admin/accounts', {
        method: 'POST',
        json: { email: `contract-${crypto.randomUUID()}@example.com`, tier: 'member' },
      }),
      '/api/v1/admin/accounts',
      'post',
    );
  });

  it('a limited answer carries the declared RateLimit-* headers, and its 429 Retry-After too', async () => {
    const ip = { headers: { 'cf-connecting-ip': '192.0.2.201' } };
    let last: TestResponse | undefined;
    for (let i = 0; i <= rateLimitPolicies.public.limit; i++) last = await t.request('/api/v1/categories', ip);
    expect(last!.status).toBe(429);
    await expectDeclared(last!, '/api/v1/categories', 'get');
    for (const name of Object.keys(doc.paths['/api/v1/categories'].get.responses['429'].headers))
      expect(last!.headers.get(name), name).toMatch(/^\d+$/);
  });
});

describe('openapi.json reads the one tables (issue 22, "each fact once")', () => {
  const resolve = (schema: Json): Json =>
    schema?.$ref ? doc.components.schemas[String(schema.$ref).split('/').at(-1)!] : schema;

  it('every error response declares `code` as the enum of the error-code table', () => {
    const errors = operations().flatMap(({ path, method, op }) =>
      Object.entries(op.responses as Record<string, Json>)
        // 402 answers with the pending-payment record (reference 4.6), not an error body.
        .filter(([status]) => Number(status) >= 400 && status !== '402')
        .map(([status, response]) => ({
          where: `${method} ${path} ${status}`,
          schema: response.content?.['application/json']?.schema,
        })),
    );
    expect(errors.length).toBeGreaterThan(50);
    const other = errors.filter(
      ({ schema }) =>
        JSON.stringify(resolve(resolve(schema)?.properties?.error)?.properties?.code?.enum) !==
        JSON.stringify(errorCodes),
    );
    expect(other.map(({ where }) => where)).toEqual([]);
  });

  it('the plan and tier enums are the plan table', () => {
    expect(resolve(doc.components.schemas.SubmitRequest).properties.plan.enum).toEqual([...planNames]);
    expect(resolve(doc.components.schemas.MembershipCheckout).properties.tier.enum).toEqual([...membershipTiers]);
  });
});
