import { type CachedPage, type PageCache, PAGE_CACHE_TTL_SECONDS } from './types';

/**
 * Pages in process memory, least recently used first out once `maxBytes` of bodies are held. One entry per key:
 * a page rendered at a newer listing version replaces the older one, and an older one is never served.
 */
export function createMemoryPageCache(
  options: { maxBytes?: number; ttlSeconds?: number; now?: () => number } = {},
): PageCache {
  const maxBytes = options.maxBytes ?? 32 * 2 ** 20;
  const ttlMs = (options.ttlSeconds ?? PAGE_CACHE_TTL_SECONDS) * 1000;
  const now = options.now ?? (() => Date.now());
  const entries = new Map<string, { version: number; page: CachedPage; bytes: number }>();
  let bytes = 0;
  const remove = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= entry.bytes;
  };
  return {
    kind: 'memory',
    async get(key, version) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.version !== version || now() - entry.page.storedAt >= ttlMs) {
        if (entry.version < version || now() - entry.page.storedAt >= ttlMs) remove(key);
        return undefined;
      }
      // Map order is insertion order: moving a hit to the end makes the first key the least recently used.
      entries.delete(key);
      entries.set(key, entry);
      return entry.page;
    },
    async put(key, version, page) {
      const current = entries.get(key);
      if (current && current.version > version) return; // rendered before a change another request already saw
      remove(key);
      const size = page.body.byteLength + key.length * 2 + 512; // plus headers and bookkeeping
      if (size > maxBytes / 8) return; // one page never takes over the cache
      entries.set(key, { version, page, bytes: size });
      bytes += size;
      for (const oldest of entries.keys()) {
        if (bytes <= maxBytes) break;
        remove(oldest);
      }
    },
  };
}
