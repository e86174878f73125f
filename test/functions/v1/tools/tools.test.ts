import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../helpers/test-app';
import { seedTools } from '../../../helpers/live-tools';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

// Each test speaks from its own client address, so the per-IP limit of one test never spills into another.
const fromIp = (ip: string) => ({ headers: { 'cf-connecting-ip': ip } });

describe('GET /api/v1/tools', () => {
  it('searches live tools without a key, best match first, with rate-limit headers', async () => {
    const [named, described] = await seedTools(t.deps.db, [
      { name: 'Restful Quokka', description: 'Plans trips.', categories: ['writing', 'code'] },
      { name: 'Trip Planner', description: 'Works like restful quokka but slower.', isSponsor: true },
      { name: 'Restful Quokka Draft', status: 'pending_review' },
    ]);
    const res = await t.request('/api/v1/tools?q=restful%20quokka', fromIp('10.0.0.1'));
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-limit')).toBe('60');
    expect(await res.json()).toEqual({
      tools: [
        {
          slug: named!.slug,
          name: 'Restful Quokka',
          url: named!.url,
          description: 'Plans trips.',
          is_feature: false,
          is_sponsor: false,
          live_url: `http://tooldir.test/tools/${named!.slug}`,
          categories: [
            { slug: 'code', name: 'Code' },
            { slug: 'writing', name: 'Writing' },
          ],
        },
        {
          slug: described!.slug,
          name: 'Trip Planner',
          url: described!.url,
          description: 'Works like restful quokka but slower.',
          is_feature: false,
          is_sponsor: true,
          live_url: `http://tooldir.test/tools/${described!.slug}`,
          categories: [],
        },
      ],
      next_cursor: null,
      suggestion: null,
      closest_categories: [],
      newest_tools: [],
    });
  });

  it('pages with limit and cursor', async () => {
    const seeded = await seedTools(
      t.deps.db,
      Array.from({ length: 5 }, (_, i) => ({ name: `Restpager ${i}` })),
    );
    const first = (await (await t.request('/api/v1/tools?q=restpager&limit=2', fromIp('10.0.0.2'))).json()) as {
      tools: { slug: string }[];
      next_cursor: string;
    };
    expect(first.tools).toHaveLength(2);
    const seen = new Set(first.tools.map((r) => r.slug));
    let cursor: string | null = first.next_cursor;
    while (cursor) {
      const res = await t.request(
        `/api/v1/tools?q=restpager&limit=2&cursor=${encodeURIComponent(cursor)}`,
        fromIp('10.0.0.2'),
      );
      expect(res.status).toBe(200);
      const page = (await res.json()) as { tools: { slug: string }[]; next_cursor: string | null };
      for (const r of page.tools) {
        expect(seen.has(r.slug)).toBe(false);
        seen.add(r.slug);
      }
      cursor = page.next_cursor;
    }
    // Every seeded tool exactly once (a loosely similar name from another test may also match, ranked lower).
    for (const tool of seeded) expect(seen.has(tool.slug)).toBe(true);
  });

  it('answers 400 naming the parameter for invalid input', async () => {
    for (const [path, field] of [
      ['/api/v1/tools?limit=0', 'limit'],
      ['/api/v1/tools?limit=51', 'limit'],
      ['/api/v1/tools?limit=abc', 'limit'],
      [`/api/v1/tools?q=${'x'.repeat(201)}`, 'q'],
      ['/api/v1/tools?cursor=%%%', 'cursor'],
    ] as const) {
      const res = await t.request(path, fromIp('10.0.0.3'));
      expect(res.status, path).toBe(400);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('invalid_request');
      expect(body.error.message.startsWith(field), body.error.message).toBe(true);
    }
  });

  it('limits each client IP to 60 requests a minute, with Retry-After', async () => {
    // Each a different search: an answer the page cache already holds is served without counting (docs/pages.md
    // "Caching and rate limits"), so a repeated one would never reach the limiter.
    for (let i = 0; i < 60; i++)
      expect((await t.request(`/api/v1/tools?limit=1&q=tool${i}`, fromIp('10.0.0.4'))).status).toBe(200);
    const limited = await t.request('/api/v1/tools?limit=1&q=one+more', fromIp('10.0.0.4'));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await limited.json()) as { error: { code: string } }).error.code).toBe('rate_limited');
    expect((await t.request('/api/v1/tools/anything', fromIp('10.0.0.4'))).status).toBe(429);
    expect((await t.request('/api/v1/tools?limit=1&q=one+more', fromIp('10.0.0.5'))).status).toBe(200);
    // A search the cache holds is answered to the refused address too: it costs no statement (no search, no limiter).
    const cached = await t.request('/api/v1/tools?limit=1&q=tool0', fromIp('10.0.0.4'));
    expect(cached.status).toBe(200);
    expect(cached.headers.get('x-cache')).toBe('hit');
    expect(cached.headers.get('ratelimit-remaining')).toBeNull();
  });
});

describe('GET /api/v1/tools/{slug}', () => {
  it('returns a live tool and 404 for anything not live', async () => {
    // image: a row crawled before own media (docs/media.md) holds the remote URL, which is never passed on.
    const [live, review] = await seedTools(t.deps.db, [
      {
        name: 'Slugged Tool',
        description: 'Does things.',
        image: 'https://img.example/og.png',
        icon: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.png',
        categories: ['image'],
      },
      { name: 'Slugged Draft', status: 'pending_review' },
    ]);
    const res = await t.request(`/api/v1/tools/${live!.slug}`, fromIp('10.0.1.1'));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      site_id: live!.id,
      slug: live!.slug,
      name: 'Slugged Tool',
      url: live!.url,
      description: 'Does things.',
      image: null,
      icon: 'http://tooldir.test/media/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.png',
      is_feature: false,
      is_sponsor: false,
      live_url: `http://tooldir.test/tools/${live!.slug}`,
      published_at: expect.any(String),
      categories: [{ slug: 'image', name: 'Image' }],
      // Never re-checked yet (docs/health.md): the state says so rather than claiming the site answers.
      health: {
        state: 'unchecked',
        reason: 'not checked yet',
        last_checked_at: null,
        last_ok_at: null,
        failing_since: null,
        moved_to: null,
      },
      // No MCP server named (test/functions/v1/tools/tool-mcp.test.ts has listings with one).
      mcp: null,
    });
    for (const slug of [review!.slug, 'no-such-tool']) {
      const missing = await t.request(`/api/v1/tools/${slug}`, fromIp('10.0.1.1'));
      expect(missing.status).toBe(404);
      expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('not_found');
    }
  });

  it('refuses other methods with 405', async () => {
    const res = await t.request('/api/v1/tools', { method: 'POST', ...fromIp('10.0.1.2') });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    expect(await res.json()).toEqual({
      error: { code: 'method_not_allowed', message: expect.stringMatching(/is not allowed on/) },
    });
  });
});

describe('openapi.json', () => {
  it('documents both directory endpoints as public: an empty security requirement', async () => {
    const doc = (await (await t.request('/api/v1/openapi.json')).json()) as {
      paths: Record<string, { get?: { security?: unknown; operationId?: string } }>;
      components: { schemas: Record<string, unknown> };
    };
    expect(doc.paths['/api/v1/tools']?.get?.operationId).toBe('searchTools');
    expect(doc.paths['/api/v1/tools/{slug}']?.get?.operationId).toBe('getTool');
    expect(doc.paths['/api/v1/tools']?.get?.security).toEqual([]);
    expect(doc.paths['/api/v1/tools/{slug}']?.get?.security).toEqual([]);
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(['ToolSummary', 'ToolSearchPage', 'ToolDetail']),
    );
  });
});
