// The page cache keys on the parameters a route reads (functions/middleware/page-cache-keys.ts): a parameter no
// route reads neither creates an entry nor evicts a real page, and is answered with the page it does not change.
// Through app.request on PGlite, with a page cache small enough to show an eviction.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryPageCache } from '../../../src/adapters/page-cache/memory';
import { TOOLS_SEARCH_PARAMS } from '../../../functions/middleware/page-cache-keys';
import { seedTools } from '../../helpers/live-tools';
import { createTestApp, type TestApp } from '../../helpers/test-app';

let t: TestApp;
beforeAll(async () => {
  // Room for a few pages only: anything that makes new entries evicts the older ones.
  t = await createTestApp({ overrides: { pageCache: createMemoryPageCache({ maxBytes: 400_000 }) } });
});
afterAll(() => t?.close());

let address = 0;
/** Each request from its own address: the per-IP limit is not what is tested here. */
const get = (path: string) => t.request(path, { headers: { 'cf-connecting-ip': `192.0.2.${++address % 250}` } });
const cacheOf = async (path: string) => {
  const res = await get(path);
  expect(res.status, path).toBe(200);
  return { state: res.headers.get('x-cache'), body: await res.text() };
};

describe('the page cache keys on what a route reads', () => {
  it('a parameter no route reads is no part of the key: the first request keeps the page, the rest are hits', async () => {
    const [tool] = await seedTools(t.deps.db, [{ name: 'Keyed Quill', categories: ['writing'] }]);
    for (const [junk, plain] of [
      [`/tools/${tool!.slug}?junk=1`, `/tools/${tool!.slug}`],
      ['/categories/writing?utm_source=x', '/categories/writing'],
      ['/?q=keyed+quill&junk=1', '/?q=keyed+quill'],
      ['/api/v1/tools?q=keyed&junk=1', '/api/v1/tools?q=keyed'],
    ] as const) {
      const first = await cacheOf(junk);
      expect(first.state, junk).toBe('miss');
      const real = await cacheOf(plain);
      expect(real.state, plain).toBe('hit');
      expect(real.body).toBe(first.body);
      for (let n = 2; n < 6; n++)
        expect((await cacheOf(`${plain}${plain.includes('?') ? '&' : '?'}junk=${n}&fbclid=${n}`)).state).toBe('hit');
    }
  });

  it('the parameters a route reads are part of it, as the route reads them', async () => {
    await seedTools(t.deps.db, [{ name: 'Read Params One' }, { name: 'Read Params Two' }]);
    expect((await cacheOf('/?q=read+params+one')).state).toBe('miss');
    expect((await cacheOf('/?q=read+params+two')).state).toBe('miss');
    // The home page trims its search: the same words are the same page.
    expect((await cacheOf('/?q=%20read+params+one%20')).state).toBe('hit');
    // A search reads its cursor, not the listing's position; the listing reads its position, not a cursor.
    expect((await cacheOf('/?q=read+params+one&after=anything')).state).toBe('hit');
    expect((await cacheOf('/?cursor=anything&q=')).state).toBe('miss');
    expect((await cacheOf('/')).state).toBe('hit');
    expect((await cacheOf('/api/v1/tools?q=read&limit=1')).state).toBe('miss');
    expect((await cacheOf('/api/v1/tools?q=read&limit=2')).state).toBe('miss');
    expect((await cacheOf('/api/v1/tools?limit=1&q=read')).state).toBe('hit'); // order of the query does not matter
  });

  it('a search as typed (correct=false) is its own page, never the corrected one kept before it', async () => {
    await seedTools(t.deps.db, [{ name: 'Keyed Meeting Notes' }]);
    const corrected = await cacheOf('/?q=keyed+metting');
    expect(corrected.state).toBe('miss');
    expect(corrected.body).toContain('Showing results for');
    const asTyped = await cacheOf('/?q=keyed+metting&correct=false');
    expect(asTyped.state).toBe('miss');
    expect(asTyped.body).not.toContain('Showing results for');
    expect(asTyped.body).toContain('No tool matches your search');
    // Any other value corrects, as no value does: the page kept for the corrected search.
    expect((await cacheOf('/?q=keyed+metting&correct=yes')).state).toBe('hit');
    expect((await cacheOf('/?correct=false&q=keyed+metting')).state).toBe('hit');
    const json = await cacheOf('/api/v1/tools?q=keyed+metting');
    expect(JSON.parse(json.body).suggestion).toEqual({ query: 'keyed meeting', corrected_from: 'keyed metting' });
    const jsonAsTyped = await cacheOf('/api/v1/tools?q=keyed+metting&correct=false');
    expect(jsonAsTyped.state).toBe('miss');
    expect(JSON.parse(jsonAsTyped.body)).toMatchObject({ tools: [], suggestion: null });
  });

  it('junk parameters evict no real page, however many are sent', async () => {
    const tools = await seedTools(t.deps.db, [{ name: 'Evict Me Not' }, { name: 'Evict Me Not Either' }]);
    const real = tools.map((tool) => `/tools/${tool.slug}`);
    for (const path of real) await cacheOf(path);
    for (let n = 0; n < 120; n++) expect((await cacheOf(`${real[n % 2]}?junk=${n}`)).state).toBe('hit');
    for (const path of real) expect((await cacheOf(path)).state, path).toBe('hit');
    // The positive control: pages that are really different do evict each other in a cache this small.
    const others = await seedTools(
      t.deps.db,
      Array.from({ length: 30 }, (_, i) => ({ name: `Filler Page ${i}`, description: 'x'.repeat(2000) })),
    );
    for (const other of others) await cacheOf(`/tools/${other.slug}`);
    expect((await cacheOf(real[0]!)).state).toBe('miss');
  });

  it('a parameter the route reads, given twice, is never answered from a kept page (the JSON search refuses it)', async () => {
    await seedTools(t.deps.db, [{ name: 'Twice Asked' }]);
    expect((await cacheOf('/api/v1/tools?q=twice')).state).toBe('miss');
    const twice = await get('/api/v1/tools?q=twice&q=other');
    expect(twice.status).toBe(400);
    expect(twice.headers.get('x-cache')).toBeNull();
  });

  it('the JSON search reads exactly the parameters its key is made of', async () => {
    const doc = (await (await t.request('/api/v1/openapi.json')).json()) as {
      paths: Record<string, { get: { parameters: { name: string; in: string }[] } }>;
    };
    const read = doc.paths['/api/v1/tools']!.get.parameters.filter((p) => p.in === 'query').map((p) => p.name);
    expect(read.sort()).toEqual([...TOOLS_SEARCH_PARAMS].sort());
  });
});
