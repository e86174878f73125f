// The page cache in front of the public directory (docs/pages.md "Caching"): what it keeps, for whom, for how long,
// and that a change to the listing is never hidden behind it. Through app.request on PGlite.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client';
import { seedTools } from '../../helpers/live-tools';
import { createTestApp, type TestApp } from '../../helpers/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let address = 0;
/** Each request from its own address unless told otherwise: the per-IP limit is tested elsewhere. */
const get = (path: string, headers: Record<string, string> = {}) =>
  t.request(path, { headers: { 'cf-connecting-ip': `192.0.2.${++address % 250}`, ...headers } });

describe('the page cache', () => {
  it('keeps the home page, a tool page, a category page, the search page and JSON search, and answers them again unchanged', async () => {
    const [tool] = await seedTools(t.deps.db, [
      { name: 'Cached Quill', description: 'Writes.', categories: ['writing'] },
    ]);
    for (const path of [
      '/',
      `/tools/${tool!.slug}`,
      '/categories/writing',
      '/?q=cached+quill',
      '/api/v1/tools?q=cached+quill',
    ]) {
      const miss = await get(path);
      expect(miss.status, path).toBe(200);
      expect(miss.headers.get('x-cache'), path).toBe('miss');
      expect(miss.headers.get('cache-control'), path).toBe('public, max-age=60, stale-while-revalidate=300');
      expect(miss.headers.get('vary'), path).toBe('Cookie');
      expect(miss.headers.get('ratelimit-remaining'), path).not.toBeNull(); // a miss was counted
      const body = await miss.text();
      expect(body, path).toContain('Cached Quill');
      const hit = await get(path, { 'x-request-id': 'request-id-of-the-hit' });
      expect(hit.headers.get('x-cache'), path).toBe('hit');
      expect(await hit.text(), path).toBe(body);
      expect(hit.headers.get('etag'), path).toBe(miss.headers.get('etag'));
      expect(hit.headers.get('content-type'), path).toBe(miss.headers.get('content-type'));
      expect(hit.headers.get('content-security-policy'), path).toBe(miss.headers.get('content-security-policy'));
      expect(hit.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(Number(hit.headers.get('age')), path).toBeGreaterThanOrEqual(0);
      // This request's own id, and no other client's rate-limit state.
      expect(hit.headers.get('x-request-id'), path).toBe('request-id-of-the-hit');
      expect(hit.headers.get('ratelimit-remaining'), path).toBeNull();
    }
  });

  it('answers 304 without a body to a client that holds the same bytes (If-None-Match)', async () => {
    await seedTools(t.deps.db, [{ name: 'Etag Tool' }]);
    const first = await get('/?q=etag+tool');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]{16}-[0-9a-z]+"$/);
    const again = await get('/?q=etag+tool', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect((await get('/?q=etag+tool', { 'if-none-match': `W/${etag}, "other"` })).status).toBe(304);
    expect((await get('/?q=etag+tool', { 'if-none-match': '"something-else"' })).status).toBe(200);
  });

  it('never hides a change: a tool going live, renamed, taken down or recategorised, and a category renamed', async () => {
    const [first] = await seedTools(t.deps.db, [{ name: 'Before Change', categories: ['audio'] }]);
    const read = async (path: string) => {
      const res = await get(path);
      return { cache: res.headers.get('x-cache'), text: await res.text() };
    };
    expect((await read('/')).text).toContain('Before Change');
    expect((await read('/')).cache).toBe('hit');

    const [second] = await seedTools(t.deps.db, [{ name: 'Just Went Live' }]);
    let home = await read('/');
    expect(home.cache).toBe('miss');
    expect(home.text).toContain('Just Went Live');

    await queryRows(t.deps.db, sql`UPDATE sites SET name = 'Renamed Right Away' WHERE id = ${first!.id}`);
    expect((await read(`/tools/${first!.slug}`)).text).toContain('Renamed Right Away');
    expect((await read('/?q=renamed+right+away')).text).toContain('Renamed Right Away');

    expect((await read('/categories/video')).text).not.toContain('Renamed Right Away');
    await queryRows(
      t.deps.db,
      sql`INSERT INTO site_categories (site_id, category_slug) VALUES (${first!.id}, 'video')`,
    );
    expect((await read('/categories/video')).text).toContain('Renamed Right Away');

    await queryRows(t.deps.db, sql`UPDATE categories SET name = 'Sound and Voice' WHERE slug = 'audio'`);
    expect((await read('/categories/audio')).text).toContain('<h1>Sound and Voice</h1>');

    await queryRows(t.deps.db, sql`UPDATE sites SET status = 'rejected' WHERE id = ${second!.id}`);
    home = await read('/');
    expect(home.text).not.toContain('Just Went Live');
    const gone = await get(`/tools/${second!.slug}`);
    expect(gone.status).toBe(404);
    expect(gone.headers.get('x-cache')).toBeNull(); // only 200s are kept
  });

  it('never serves or keeps a response for a request with the session cookie; it is private and varies by cookie', async () => {
    await seedTools(t.deps.db, [{ name: 'Cookie Tool' }]);
    const session = { cookie: 'theme=dark; tooldir_session=anything' };
    const signedIn = await get('/?q=cookie+tool', session);
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers.get('x-cache')).toBeNull();
    expect(signedIn.headers.get('cache-control')).toBe('private, no-cache');
    expect(signedIn.headers.get('vary')).toBe('Cookie');
    const anonymous = await get('/?q=cookie+tool', { cookie: 'theme=dark; not_tooldir_session=x' });
    expect(anonymous.headers.get('x-cache')).toBe('miss'); // the signed-in answer was not kept
    expect((await get('/?q=cookie+tool', session)).headers.get('x-cache')).toBeNull(); // nor is the anonymous one served
    expect((await get('/?q=cookie+tool')).headers.get('x-cache')).toBe('hit');
  });

  it('keeps nothing that is not a 200 for everyone: errors, refusals, bad cursors', async () => {
    const ip = { 'cf-connecting-ip': '198.51.100.77' };
    for (let i = 0; i < 60; i++) await t.request(`/?q=exhaust+${i}`, { headers: ip });
    const refused = await t.request('/?q=refused+search', { headers: ip });
    expect(refused.status).toBe(429);
    expect((await get('/?q=refused+search')).headers.get('x-cache')).toBe('miss');
    for (const path of ['/?after=forged', '/tools/no-such-tool', '/api/v1/tools?limit=0']) {
      const res = await get(path);
      expect(res.status, path).not.toBe(200);
      expect((await get(path)).headers.get('x-cache'), path).toBeNull();
    }
  });

  it('renders the same bytes for the same data (no per-response nonce), so a kept page is what a render would give', async () => {
    const [tool] = await seedTools(t.deps.db, [{ name: 'Deterministic Tool' }]);
    const a = await (await get(`/tools/${tool!.slug}`)).text();
    await queryRows(t.deps.db, sql`UPDATE categories SET description = description WHERE slug = 'writing'`); // a new version, same data
    const b = await get(`/tools/${tool!.slug}`);
    expect(b.headers.get('x-cache')).toBe('miss');
    expect(await b.text()).toBe(a);
    expect(b.headers.get('content-security-policy')).not.toContain('nonce');
  });
});
