// Property-based fuzzing of everything that takes a category: the operator's create / change / delete, the
// search filter and submit's categories. Properties: never a 5xx, the error shape on every 4xx, and a refused
// request changes no category and no site.
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client';
import { ADMIN_TOKEN, type TestApp } from '../../helpers/test-app';
import { seedTools } from '../../helpers/live-tools';
import { anyField, createFuzzApp, expectNoServerError } from './fuzz-app';
import { propertyRuns } from '../../helpers/property-runs';

/** Fewer cases than the 2,000 of the main suites: these share the validation code those suites already cover. */
const RUNS = propertyRuns(300);

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await createFuzzApp();
  ({ key } = await t.member('member'));
  await seedTools(t.deps.db, [{ name: 'Fuzzed Category Tool', categories: ['writing'] }]);
});
afterAll(() => t.close());

async function snapshot() {
  const [row] = await queryRows<{ categories: string; links: number; sites: number }>(
    t.deps.db,
    sql`SELECT (SELECT string_agg(slug || '|' || name || '|' || coalesce(description, '∅'), ',' ORDER BY slug) FROM categories) AS categories,
        (SELECT count(*) FROM site_categories)::int AS links, (SELECT count(*) FROM sites)::int AS sites`,
  );
  return row;
}

const slugish = fc.oneof(
  fc.constantFrom(
    'writing',
    'code',
    'no-such',
    'UPPER',
    '',
    '-',
    'a--b',
    'x'.repeat(41),
    '%00',
    '..',
    'a%2Fb',
    "1'%20OR%201=1--",
  ),
  fc.stringMatching(/^[a-z0-9-]{1,45}$/),
  fc.string().map(encodeURIComponent),
);
const bodyText = (fields: fc.Arbitrary<Record<string, unknown>>) =>
  fc.oneof(
    { weight: 5, arbitrary: fields.map((f) => JSON.stringify(f)) },
    { weight: 1, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.string() },
  );

async function send(method: string, path: string, body: string | undefined, auth: string, okStatuses: number[]) {
  const before = await snapshot();
  const headers: Record<string, string> = { authorization: `Bearer ${auth}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await t.request(path, { method, headers, body });
  await expectNoServerError(res, `${method} ${path.slice(0, 200)} ${body?.slice(0, 200) ?? ''}`);
  if (!okStatuses.includes(res.status)) expect(await snapshot()).toEqual(before);
  return res.status;
}

describe('fuzz categories', () => {
  it(`operator create, change and delete: ${RUNS} generated requests each`, async () => {
    const fields = fc.record(
      {
        slug: fc.oneof(slugish, anyField),
        name: fc.oneof(fc.string({ maxLength: 70 }), anyField),
        description: fc.oneof(fc.string({ maxLength: 320 }), anyField),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(bodyText(fields), async (body) => {
        await send('POST', '/api/v1/admin/categories', body, ADMIN_TOKEN, [201]);
      }),
      { numRuns: RUNS },
    );
    await fc.assert(
      fc.asyncProperty(slugish, bodyText(fields), async (slug, body) => {
        await send('PATCH', `/api/v1/admin/categories/${slug}`, body, ADMIN_TOKEN, [200]);
      }),
      { numRuns: RUNS },
    );
    await fc.assert(
      fc.asyncProperty(slugish, async (slug) => {
        const status = await send('DELETE', `/api/v1/admin/categories/${slug}`, undefined, ADMIN_TOKEN, [204]);
        // The starter category the seeded tool is in is never deletable.
        if (slug === 'writing') expect(status).toBe(409);
      }),
      { numRuns: RUNS },
    );
  }, 300_000);

  it(`search with a category: ${RUNS} generated query strings`, async () => {
    await fc.assert(
      fc.asyncProperty(slugish, fc.option(fc.string({ maxLength: 30 })), async (category, q) => {
        const params = `category=${category}${q === null ? '' : `&q=${encodeURIComponent(q)}`}`;
        const res = await t.request(`/api/v1/tools?${params}`);
        await expectNoServerError(res, params);
        expect([200, 400]).toContain(res.status);
      }),
      { numRuns: RUNS },
    );
  }, 300_000);

  it(`submit with generated categories: ${RUNS} bodies`, async () => {
    let n = 0;
    const categories = fc.oneof(fc.array(fc.oneof(slugish, anyField), { maxLength: 5 }), anyField);
    await fc.assert(
      fc.asyncProperty(categories, async (cats) => {
        n++;
        const body = JSON.stringify({
          name: `Fuzz Cat ${n} ${crypto.randomUUID().slice(0, 6)}`,
          url: `https://fuzz-cat-${n}-${crypto.randomUUID().slice(0, 6)}.example/`,
          categories: cats,
        });
        await send('POST', '/api/v1/submit-site', body, key, [201, 402]);
      }),
      { numRuns: RUNS },
    );
  }, 300_000);
});
