// Property-based fuzzing of listing statistics: GET /api/v1/sites/{site_id}/stats query strings and ids, and the
// counted public paths /go/{slug}, /tools/{slug}, /badge/{slug}.svg. Properties: never a 5xx; the stats read is
// 200 with exactly the days asked for, or 400/404 in the error shape; /go never redirects anywhere but the tool's URL.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/test-app';
import { seedOwnedTool } from '../../helpers/owned-tools';
import { BROWSER_UA } from '../../helpers/stats-harness';
import { RUNS, anyField, createFuzzApp, expectNoServerError } from './fuzz-app';
import { daysInRange, isCalendarDay } from '../../../src/utc-day';

let t: TestApp;
let key: string;
let siteId: string;
let slug: string;
beforeAll(async () => {
  t = await createFuzzApp();
  const member = await t.member('member');
  key = member.key;
  ({ id: siteId, slug } = await seedOwnedTool(t.deps.db, member.accountId, { name: 'Fuzz Stats Tool' }));
});
afterAll(() => t.close());

const text = (v: unknown) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));
const dateish = fc.oneof(
  fc
    .date({ min: new Date('1990-01-01'), max: new Date('2100-12-31'), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10)),
  fc.constantFrom(
    '',
    '2026-02-29',
    '2028-02-29',
    '2026-13-01',
    '2026-00-10',
    '0000-01-01',
    '9999-12-31',
    '2026-1-1',
    '20260101',
    '2026-01-01T00:00:00Z',
    ' 2026-01-01',
    '%00',
    '٢٠٢٦-٠١-٠١',
  ),
  anyField.map(text),
);

describe('fuzz GET /api/v1/sites/{site_id}/stats', () => {
  it(`answers ${RUNS / 4} generated ranges with the days asked for, or a 400 in the error shape`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.record({ from: dateish, to: dateish }, { requiredKeys: [] }), async (range) => {
        // (URLSearchParams drops nothing: an empty value is sent as from= and is a bad date.)
        const params = new URLSearchParams(
          Object.entries(range).filter((e): e is [string, string] => e[1] !== undefined),
        );
        const res = await t.request(`/api/v1/sites/${siteId}/stats?${params}`, { key });
        await expectNoServerError(res.clone() as Response, params.toString());
        if (res.status === 200) {
          const body = await res.json();
          expect(isCalendarDay(body.from) && isCalendarDay(body.to)).toBe(true);
          expect(body.days).toHaveLength(daysInRange(body.from, body.to));
          if (range.from !== undefined) expect(body.from).toBe(range.from);
          if (range.to !== undefined) expect(body.to).toBe(range.to);
        } else {
          expect(res.status).toBe(400);
          expect((await res.json()).error.code).toBe('invalid_request');
        }
      }),
      { numRuns: Math.ceil(RUNS / 4) },
    );
  });

  it(`answers ${RUNS / 4} generated site ids with 404, never a 5xx`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.uuid(), fc.string({ maxLength: 60 }), anyField.map(text)), async (id) => {
        const res = await t.request(`/api/v1/sites/${encodeURIComponent(id)}/stats`, { key });
        await expectNoServerError(res, id);
        expect([404, 400]).toContain(res.status);
      }),
      // Dot segments leave the route (/api/v1/sites/../stats is /api/v1/stats): still no answer but a refusal.
      { numRuns: Math.ceil(RUNS / 4), examples: [['..'], ['.']] },
    );
  });
});

describe('fuzz the counted paths', () => {
  it(`never answers a 5xx, and /go redirects only to the tool's own URL (${RUNS / 4} paths)`, async () => {
    const segment = fc.oneof(fc.constant(slug), fc.string({ maxLength: 30 }), fc.webSegment(), anyField.map(text));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/go/', '/tools/', '/badge/'),
        segment,
        fc.webQueryParameters(),
        async (prefix, name, query) => {
          const path = `${prefix}${encodeURIComponent(name)}${prefix === '/badge/' ? '.svg' : ''}${query ? `?${query}` : ''}`;
          const res = await t.request(path, { headers: { 'user-agent': BROWSER_UA } });
          // These are pages: a 404 is the HTML not-found page, not the API's error shape.
          expect(res.status, path).toBeLessThan(500);
          const location = res.headers.get('location');
          if (location !== null) expect(location, path).toBe(`https://${slug}.example/?ref=tooldir`);
        },
      ),
      { numRuns: Math.ceil(RUNS / 4) },
    );
  });
});
