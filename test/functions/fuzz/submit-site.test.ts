// Property-based fuzzing of POST /api/v1/submit-site: any body, any shape, any content type.
// Properties: never a 5xx; a refused body (anything but 201/402) changes no row.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/test-app';
import { RUNS, anyField, createFuzzApp, expectNoServerError, planish, rowCounts, urlish } from './fuzz-app';

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await createFuzzApp();
  key = (await t.member('none')).key;
});
afterAll(() => t.close());

const fields = fc.record(
  {
    name: fc.oneof(fc.string({ maxLength: 120 }), anyField),
    url: fc.oneof(urlish, anyField),
    email: fc.oneof(fc.emailAddress(), anyField),
    plan: planish,
  },
  { requiredKeys: [] },
);
const extraKeys = fc.dictionary(fc.string({ maxLength: 8 }), anyField, { maxKeys: 2 });
// Well-formed submissions (names and .example URLs that pass every rule), so that a good share of the cases
// reaches the verbs and the database: the free-form fields above are valid only ~0.5 % of the time, and one
// CI run drew none at all.
const validFields = fc.record(
  {
    name: fc.stringMatching(/^[A-Z][a-z]{2,12}( [A-Z][a-z]{1,10}){0,2}$/),
    url: fc.stringMatching(/^[a-z][a-z0-9]{2,20}$/).map((host) => `https://${host}.example/`),
    plan: fc.constantFrom('basic', 'featured', 'sponsored'),
  },
  { requiredKeys: ['name', 'url'] },
);

/** A body as text plus the content type it is sent with. */
const body = fc.oneof(
  { weight: 2, arbitrary: validFields.map((f) => ({ text: JSON.stringify(f), type: 'application/json' })) },
  {
    weight: 6,
    arbitrary: fc
      .tuple(fields, extraKeys)
      .map(([f, extra]) => ({ text: JSON.stringify({ ...extra, ...f }), type: 'application/json' })),
  },
  { weight: 1, arbitrary: fc.jsonValue().map((v) => ({ text: JSON.stringify(v), type: 'application/json' })) },
  { weight: 1, arbitrary: fc.string().map((text) => ({ text, type: 'application/json' })) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fields,
        fc.constantFrom(
          'text/plain',
          'application/x-www-form-urlencoded',
          '',
          'application/json; charset=utf-16',
          'application/vnd.api+json',
        ),
      )
      .map(([f, type]) => ({ text: JSON.stringify(f), type })),
  },
);

describe('fuzz POST /api/v1/submit-site', () => {
  it(`answers ${RUNS} generated bodies without a 5xx; refused bodies change nothing`, async () => {
    const seen = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(body, async ({ text, type }) => {
        const before = await rowCounts(t);
        const headers: Record<string, string> = { authorization: `Bearer ${key}` };
        if (type) headers['content-type'] = type;
        const res = await t.request('/api/v1/submit-site', { method: 'POST', headers, body: text });
        seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
        await expectNoServerError(res, `body ${text.slice(0, 200)}`);
        if (res.status !== 201 && res.status !== 402) expect(await rowCounts(t)).toEqual(before);
      }),
      { numRuns: RUNS },
    );
    // The generator must reach both sides: refusals and accepted submissions (~2/11 of the cases are well formed).
    expect(seen.get(400) ?? 0).toBeGreaterThan(RUNS / 4);
    expect(seen.get(402) ?? 0).toBeGreaterThan(RUNS / 20);
  }, 180_000);
});
