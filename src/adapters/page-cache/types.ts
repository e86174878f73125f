/**
 * A public response kept for everyone (never one that depends on who asks): served again while the listing has
 * not changed since it was rendered (src/adapters/page-cache/listing-version.ts) and it is younger than the cache's TTL.
 */
export interface CachedPage {
  status: number;
  /** Response headers without any per-request or per-client one (request id, RateLimit-*). */
  headers: Array<[string, string]>;
  /** UTF-8, encoded once when stored: a hit writes these bytes as they are. */
  body: Uint8Array<ArrayBuffer>;
  /** Epoch milliseconds when it was rendered. */
  storedAt: number;
}

/**
 * The page cache (docs/pages.md "Caching"): in memory on Node, the Workers Cache API on Cloudflare. Entries are
 * per listing version, so a change to the listing makes every older page unreachable at once.
 */
export interface PageCache {
  kind: 'memory' | 'workers';
  /** The page stored under `key` at listing version `version` (the current one), if any. */
  get(key: string, version: number): Promise<CachedPage | undefined>;
  /** Stores a page rendered at `version` (read before rendering: never newer than the page's data). */
  put(key: string, version: number, page: CachedPage): Promise<void>;
}

/** How long a page may be kept at most (a sponsor slot can end by time alone, without a change to the listing). */
export const PAGE_CACHE_TTL_SECONDS = 60;
