// Property-based fuzzing of the paged card pages: GET / and /categories/{slug} with any ?after= / ?before=
// (docs/pages.md). Properties: never a 5xx; a page link of ours is a 200 or a 302 to the first page, anything
// else a 200 or a 400 page; a read never changes a row.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeCursor } from '../../../src/directory/search-cursor';
import { seedTools } from '../../helpers/live-tools';
import type { TestApp } from '../../helpers/test-app';
import { RUNS, createFuzzApp, rowCounts } from './fuzz-app';

let t: TestApp;
let cursor: string;
beforeAll(async () => {
  t = await createFuzzApp();
  await seedTools(
    t.deps.db,
    Array.from({ length: 30 }, (_, i) => ({ name: `Fuzz Card ${i}`, categories: ['writing'] })),
  );
  cursor = (await (await t.request('/')).text()).match(/<a rel="next" href="\/\?after=([^"]+)"/)![1]!;
});
afterAll(() => t.close());

/** Forged cursors that decode: every field at an edge of what the codec accepts. */
const forged = fc
  .record({
    micros: fc.oneof(
      fc.bigInt({ min: -(10n ** 16n) + 1n, max: 10n ** 16n - 1n }).map(String),
      fc.constantFrom('0', '-1', '9999999999999999'),
    ),
    id: fc.uuid(),
    list: fc.constantFrom('\u0001browse\u0000', '\u0001browse\u0000writing', '', 'writing'),
  })
  .map(({ micros, id, list }) => encodeCursor(list, { mode: 'newest', tier: null, publishedMicros: micros, id }));

const value = fc.oneof(
  fc.constant(null).map(() => cursor),
  forged,
  fc.base64String({ maxLength: 120 }).map((s) => s.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')),
  fc.string({ maxLength: 60 }),
  fc.constantFrom('', '%00', '\u0000', 'x'.repeat(401), '..', '<script>'),
);

const request = fc.record({
  path: fc.constantFrom('/', '/categories/writing', '/categories/code'),
  params: fc.array(fc.tuple(fc.constantFrom('after', 'before', 'after'), value), { maxLength: 2 }),
});

describe('fuzz the card pages', () => {
  it(`answers ${RUNS} generated page links without a 5xx and changes nothing`, async () => {
    const before = await rowCounts(t);
    const seen = new Set<number>();
    await fc.assert(
      fc.asyncProperty(request, async ({ path, params }) => {
        const query = new URLSearchParams(params).toString();
        const res = await t.request(`${path}${query ? `?${query}` : ''}`);
        seen.add(res.status);
        const what = `${path}?${query.slice(0, 200)}`;
        expect([200, 302, 400], what).toContain(res.status); // never a 5xx
        const body = await res.text();
        if (res.status === 400) {
          expect(res.headers.get('content-type'), what).toMatch(/^text\/html/); // a page, not the API's error JSON
          expect(body, what).toContain('<h1>Bad page link</h1>');
        }
        if (res.status === 302) expect(res.headers.get('location'), what).toBe(path);
      }),
      { numRuns: RUNS },
    );
    expect(await rowCounts(t)).toEqual(before);
    expect(seen.has(200) && seen.has(400)).toBe(true);
  }, 180_000);
});
