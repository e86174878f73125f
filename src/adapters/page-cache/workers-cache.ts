import { type CachedPage, type PageCache, PAGE_CACHE_TTL_SECONDS } from './types';

/**
 * Pages in the Workers Cache API (`caches.default`), shared by every isolate of a data center. The listing
 * version is part of the key, so a change reaches every data center as soon as its isolates read the new
 * version (within a second, src/adapters/page-cache/listing-version.ts), with nothing to purge; older entries expire by
 * their s-maxage. Keys are URLs of our own origin under a path no route serves (the Cache API keys by URL).
 * Only Workers on a custom domain have a working cache; elsewhere (workers.dev, previews) it stores nothing,
 * which only costs the speed.
 */
export function createWorkersPageCache(cache: Cache, origin: string, ttlSeconds = PAGE_CACHE_TTL_SECONDS): PageCache {
  const keyUrl = (key: string, version: number) => `${origin}/__page-cache/v${version}/${encodeURIComponent(key)}`;
  return {
    kind: 'workers',
    async get(key, version) {
      const stored = await cache.match(keyUrl(key, version));
      const meta = stored?.headers.get('x-page-cache');
      if (!stored || !meta) return undefined;
      const { status, headers, storedAt } = JSON.parse(meta) as Omit<CachedPage, 'body'>;
      return { status, headers, storedAt, body: new Uint8Array(await stored.arrayBuffer()) };
    },
    async put(key, version, page: CachedPage) {
      // The stored response's own headers are for the Cache API (its TTL); the page's are kept in one header.
      const meta = JSON.stringify({ status: page.status, headers: page.headers, storedAt: page.storedAt });
      const headers = { 'cache-control': `public, s-maxage=${ttlSeconds}`, 'x-page-cache': meta };
      await cache.put(keyUrl(key, version), new Response(page.body, { status: 200, headers }));
    },
  };
}
