// Property-based fuzzing of the reads: GET /api/v1/sites query parameters and GET /api/v1/sites/{site_id}.
// Properties: never a 5xx; a read never changes a row.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/test-app';
import { RUNS, anyField, createFuzzApp, expectNoServerError, rowCounts, urlish } from './fuzz-app';

let t: TestApp;
let key: string;
let siteId: string;
beforeAll(async () => {
  t = await createFuzzApp();
  const member = await t.member('member');
  key = member.key;
  const res = await t.request('/api/v1/submit-site', {
    method: 'POST',
    key,
    json: { name: 'Fuzz Target', url: 'https://fuzz-target.example/' },
  });
  siteId = ((await res.json()) as { site_id: string }).site_id;
});
afterAll(() => t.close());

const numberish = fc.oneof(
  fc.integer({ min: -5, max: 200 }).map(String),
  fc.constantFrom(
    '',
    '0',
    '1',
    '100',
    '101',
    '-1',
    '1e2',
    '0x10',
    '1.5',
    ' 5',
    '5 ',
    '999999999',
    '9999999999',
    'NaN',
    'Infinity',
    '٣',
  ),
  fc.string({ maxLength: 12 }),
);
const text = (v: unknown) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));

const listQuery = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .record(
        {
          limit: numberish,
          offset: numberish,
          url: fc.oneof(urlish, anyField.map(text)),
          extra: fc.dictionary(fc.string({ maxLength: 6 }), fc.string({ maxLength: 10 }), { maxKeys: 2 }),
        },
        { requiredKeys: [] },
      )
      .map(({ extra, ...known }) => {
        const params = new URLSearchParams(extra ?? {});
        for (const [k, v] of Object.entries(known)) if (v !== undefined) params.append(k, v);
        return params.toString();
      }),
  },
  // Raw query strings: repeated keys, broken escapes, no values.
  { weight: 1, arbitrary: fc.webQueryParameters() },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }).map((s) => s.replace(/#/g, '')) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('limit=1&limit=2', 'limit=%', 'offset=%zz', 'url=%E0%A4%A', 'limit', '&&&', 'url='),
  },
);

describe('fuzz GET /api/v1/sites', () => {
  it(`answers ${RUNS} generated query strings without a 5xx and changes nothing`, async () => {
    const before = await rowCounts(t);
    let ok = 0;
    await fc.assert(
      fc.asyncProperty(listQuery, async (query) => {
        const res = await t.request(`/api/v1/sites?${query}`, { key });
        if (res.status === 200) ok++;
        await expectNoServerError(res, `query ${query}`);
      }),
      { numRuns: RUNS },
    );
    expect(await rowCounts(t)).toEqual(before);
    expect(ok).toBeGreaterThan(0);
  }, 180_000);
});

const segment = fc.oneof(
  fc.uuid().map(encodeURIComponent),
  fc.constant(null).map(() => siteId),
  fc.constantFrom(
    '00000000-0000-0000-0000-000000000000',
    'null',
    'undefined',
    '%00',
    '..',
    '%2F',
    '%E0%A4%A',
    "1'%20OR%201=1--",
    'a'.repeat(2000),
  ),
  fc.string().map(encodeURIComponent),
  fc.webSegment(),
);

describe('fuzz GET /api/v1/sites/{site_id}', () => {
  it(`answers ${RUNS} generated ids without a 5xx and changes nothing`, async () => {
    const before = await rowCounts(t);
    const seen = new Set<number>();
    await fc.assert(
      fc.asyncProperty(segment, async (id) => {
        const res = await t.request(`/api/v1/sites/${id}`, { key });
        seen.add(res.status);
        await expectNoServerError(res, `id ${id.slice(0, 200)}`);
      }),
      { numRuns: RUNS },
    );
    expect(await rowCounts(t)).toEqual(before);
    expect(seen.has(200) && seen.has(404)).toBe(true);
  }, 180_000);
});
