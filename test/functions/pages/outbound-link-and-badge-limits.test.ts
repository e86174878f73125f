// GET /go/{slug} and GET /badge/{slug}.svg behind their per-client limits (src/rate-limits/policies.ts
// `outboundLinks`, `badges`): past one a 429 with Retry-After and the RateLimit-* headers, kept by no cache, and never
// counted.
// Through app.request, the client address as Workers report it (cf-connecting-ip); that the limiter answers before
// any statement runs is read from PostgreSQL's own statement log in test/e2e/rate-limit-before-work.test.ts.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client';
import { rateLimitPolicies } from '../../../src/rate-limits/policies';
import { seedTools } from '../../helpers/live-tools';
import { statsHarness } from '../../helpers/stats-harness';
import { createTestApp, type TestApp } from '../../helpers/test-app';

let t: TestApp;
let h: ReturnType<typeof statsHarness>;
beforeAll(async () => {
  t = await createTestApp();
  h = statsHarness(t);
});
afterAll(() => t?.close());

let addresses = 0;
const freshClient = () => `203.0.113.${++addresses}`;
const from = (client: string, path: string, init: RequestInit = {}) =>
  h.visit(path, { ...init, headers: { ...Object.fromEntries(new Headers(init.headers)), 'cf-connecting-ip': client } });

async function countersOf(slug: string) {
  await h.settle();
  return queryRows<{ counter: string; n: number }>(
    t.deps.db,
    sql`SELECT counter, n::int AS n FROM stat_counters WHERE slug = ${slug}`,
  );
}

describe.each([
  {
    route: 'the outbound link',
    path: (slug: string) => `/go/${slug}`,
    ok: 302,
    counter: 'clicks',
    policy: 'outboundLinks' as const,
  },
  {
    route: 'the badge',
    path: (slug: string) => `/badge/${slug}.svg`,
    ok: 200,
    counter: 'badge_loads',
    policy: 'badges' as const,
  },
])('$route', ({ path, ok, counter, policy }) => {
  const LIMIT = rateLimitPolicies[policy].limit;
  it(`answers its limit of requests a minute per client, then 429 with Retry-After, kept by no cache`, async () => {
    const [tool] = await seedTools(t.deps.db, [{ name: `Limited ${crypto.randomUUID().slice(0, 6)}` }]);
    const client = freshClient();
    for (let i = 0; i < LIMIT; i++) {
      const res = await from(client, path(tool!.slug));
      expect(res.status, `request ${i + 1}`).toBe(ok);
      expect(res.headers.get('ratelimit-remaining')).toBe(String(LIMIT - i - 1));
    }
    const refused = await from(client, path(tool!.slug));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('cache-control')).toBe('no-store');
    expect(refused.headers.get('location')).toBeNull();
    const body = await refused.text();
    if (ok === 302)
      expect(body).toContain('Too many requests from your address'); // a page, like the other pages' refusals
    else
      expect(JSON.parse(body)).toEqual({
        error: {
          code: 'rate_limited',
          message: expect.stringMatching(
            /^Too many requests: at most 60 badge loads per minute per client IP\. Retry in \d+ s\.$/,
          ),
        },
      });
    // Unknown slugs and odd names count too: the limiter answers before the name is looked at.
    expect((await from(client, path('no-such-tool'))).status).toBe(429);
    // Another client has its own bucket.
    expect((await from(freshClient(), path(tool!.slug))).status).toBe(ok);
  });

  it('a refused request is never counted, while an allowed one is', async () => {
    const [tool] = await seedTools(t.deps.db, [{ name: `Uncounted ${crypto.randomUUID().slice(0, 6)}` }]);
    const client = freshClient();
    // HEAD requests spend the bucket (the limiter runs first) but count nothing (docs/stats.md "What is not counted").
    for (let i = 0; i < LIMIT; i++) expect((await from(client, path(tool!.slug), { method: 'HEAD' })).status).toBe(ok);
    for (let i = 0; i < 5; i++) expect((await from(client, path(tool!.slug))).status).toBe(429);
    expect(await countersOf(tool!.slug)).toEqual([]);
    expect((await from(freshClient(), path(tool!.slug))).status).toBe(ok);
    expect(await countersOf(tool!.slug)).toEqual([{ counter, n: 1 }]);
  });
});

describe('three buckets: links, badges and pages', () => {
  it('a client past its link limit still loads badges and pages, and the other way round', async () => {
    const [tool] = await seedTools(t.deps.db, [{ name: `Own Buckets ${crypto.randomUUID().slice(0, 6)}` }]);
    const client = freshClient();
    for (let i = 0; i < rateLimitPolicies.outboundLinks.limit; i++)
      expect((await from(client, `/go/${tool!.slug}`)).status).toBe(302);
    expect((await from(client, `/go/${tool!.slug}`)).status).toBe(429);
    const badge = await from(client, `/badge/${tool!.slug}.svg`);
    expect(badge.status).toBe(200);
    expect(badge.headers.get('ratelimit-remaining')).toBe(String(rateLimitPolicies.badges.limit - 1));
    const page = await from(client, `/api/v1/tools?q=${crypto.randomUUID().slice(0, 8)}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('ratelimit-remaining')).toBe(String(rateLimitPolicies.public.limit - 1));
  });
});
