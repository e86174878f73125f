import { describe, expect, it } from 'vitest';
import { createMemoryPageCache } from '../../../src/adapters/page-cache/memory';
import type { CachedPage } from '../../../src/adapters/page-cache/types';

const page = (body: string, storedAt: number): CachedPage => ({
  status: 200,
  headers: [['content-type', 'text/html']],
  body: new TextEncoder().encode(body),
  storedAt,
});
const text = (p: CachedPage | undefined) => (p ? new TextDecoder().decode(p.body) : undefined);

describe('the in-memory page cache', () => {
  it('serves a page only at the listing version it was stored at, and never an older one after a newer was seen', async () => {
    const cache = createMemoryPageCache({ now: () => 0 });
    await cache.put('/a', 5, page('five', 0));
    expect(text(await cache.get('/a', 5))).toBe('five');
    expect(await cache.get('/a', 6)).toBeUndefined();
    expect(await cache.get('/a', 5)).toBeUndefined(); // dropped once a newer version was asked for
    await cache.put('/a', 7, page('seven', 0));
    await cache.put('/a', 6, page('six', 0)); // rendered before the change another request already saw: not kept
    expect(text(await cache.get('/a', 7))).toBe('seven');
  });

  it('forgets a page once it is ttlSeconds old', async () => {
    let now = 1_000;
    const cache = createMemoryPageCache({ ttlSeconds: 60, now: () => now });
    await cache.put('/a', 1, page('a', now));
    now += 59_999;
    expect(text(await cache.get('/a', 1))).toBe('a');
    now += 1;
    expect(await cache.get('/a', 1)).toBeUndefined();
  });

  it('holds at most maxBytes, dropping the least recently used first, and never one page of more than an eighth of it', async () => {
    const cache = createMemoryPageCache({ maxBytes: 64 * 1024, now: () => 0 });
    const body = 'x'.repeat(6000); // ~6.5 KB each as the cache counts it (bytes plus bookkeeping)
    for (const key of ['/1', '/2', '/3', '/4', '/5', '/6', '/7', '/8', '/9']) await cache.put(key, 1, page(body, 0));
    expect(text(await cache.get('/1', 1))).toBe(body); // used: now the most recent
    for (const key of ['/10', '/11', '/12']) await cache.put(key, 1, page(body, 0));
    expect(text(await cache.get('/1', 1))).toBe(body);
    expect(await cache.get('/2', 1)).toBeUndefined(); // the least recently used went first
    expect(text(await cache.get('/12', 1))).toBe(body);
    await cache.put('/huge', 1, page('y'.repeat(9000), 0)); // over 8 KB
    expect(await cache.get('/huge', 1)).toBeUndefined();
  });
});
