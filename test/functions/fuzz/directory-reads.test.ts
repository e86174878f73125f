// Property-based fuzzing of the public directory reads: GET /api/v1/tools query parameters (q, limit, cursor)
// and GET /api/v1/tools/{slug}. Properties: never a 5xx; a read never changes a row.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedTools } from '../../helpers/live-tools';
import type { TestApp } from '../../helpers/test-app';
import { RUNS, anyField, createFuzzApp, expectNoServerError, rowCounts } from './fuzz-app';

let t: TestApp;
let slug: string;
let cursor: string;
beforeAll(async () => {
  t = await createFuzzApp();
  const seeded = await seedTools(
    t.deps.db,
    Array.from({ length: 3 }, (_, i) => ({ name: `Fuzz Writer ${i}`, description: 'An AI writing helper' })),
  );
  slug = seeded[0]!.slug;
  const first = (await (await t.request('/api/v1/tools?q=writer&limit=1')).json()) as { next_cursor: string };
  cursor = first.next_cursor;
  expect(cursor).toEqual(expect.any(String));
});
afterAll(() => t.close());

const text = (v: unknown) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));
/** Control characters (a NUL once gave a 500 here) and other text Postgres or tsquery could choke on. */
const nasty = fc.constantFrom(
  '\u0000',
  'a\u0000b',
  '\u0007',
  "o'reilly & | ! :* (",
  '%_\\',
  'chatgtp',
  'writer',
  ' '.repeat(10),
  'x'.repeat(201),
);

const searchQuery = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .record(
        {
          q: fc.oneof(fc.string({ maxLength: 40 }), nasty, anyField.map(text)),
          limit: fc.oneof(
            fc.integer({ min: -5, max: 60 }).map(String),
            fc.constantFrom('', '1e1', '0x10', ' 5', '٣'),
            fc.string({ maxLength: 6 }),
          ),
          cursor: fc.oneof(
            fc.constant(null).map(() => cursor),
            fc.base64String({ maxLength: 80 }),
            fc.string({ maxLength: 60 }),
            nasty,
          ),
        },
        { requiredKeys: [] },
      )
      .map((known) => {
        const params = new URLSearchParams();
        for (const [k, v] of Object.entries(known)) if (v !== undefined) params.append(k, v);
        return params.toString();
      }),
  },
  { weight: 1, arbitrary: fc.webQueryParameters() },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'q=%00',
      'q=a%00b',
      'q=%',
      'limit=%zz',
      'cursor=%E0%A4%A',
      'q=a&q=b',
      'q',
      '&&&',
      `q=${'%FF'.repeat(5)}`,
    ),
  },
);

describe('fuzz GET /api/v1/tools', () => {
  it(`answers ${RUNS} generated query strings without a 5xx and changes nothing`, async () => {
    const before = await rowCounts(t);
    const seen = new Set<number>();
    await fc.assert(
      fc.asyncProperty(searchQuery, async (query) => {
        const res = await t.request(`/api/v1/tools?${query}`);
        seen.add(res.status);
        await expectNoServerError(res, `query ${query.slice(0, 200)}`);
      }),
      { numRuns: RUNS },
    );
    expect(await rowCounts(t)).toEqual(before);
    expect(seen.has(200) && seen.has(400)).toBe(true);
  }, 180_000);
});

const segment = fc.oneof(
  fc.constant(null).map(() => slug),
  fc.constantFrom(
    '%00',
    'a%00b',
    '%07',
    '..',
    '%2F',
    '%E0%A4%A',
    "1'%20OR%201=1--",
    'a'.repeat(2000),
    '00000000-0000-0000-0000-000000000000',
  ),
  fc.string().map(encodeURIComponent),
  fc.webSegment(),
);

describe('fuzz GET /api/v1/tools/{slug}', () => {
  it(`answers ${RUNS} generated slugs without a 5xx and changes nothing`, async () => {
    const before = await rowCounts(t);
    const seen = new Set<number>();
    await fc.assert(
      fc.asyncProperty(segment, async (s) => {
        const res = await t.request(`/api/v1/tools/${s}`);
        seen.add(res.status);
        await expectNoServerError(res, `slug ${s.slice(0, 200)}`);
      }),
      { numRuns: RUNS },
    );
    expect(await rowCounts(t)).toEqual(before);
    expect(seen.has(200) && seen.has(404)).toBe(true);
  }, 180_000);
});
