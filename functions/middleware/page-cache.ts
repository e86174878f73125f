import type { Context, MiddlewareHandler } from 'hono';
import type { CachedPage } from '../../src/adapters/page-cache/types';
import { readSessionCookie } from '../pages/account/cookies';
import type { AppEnv, PageCacheState } from '../types';
import { pageKey, type QueryReads } from './page-cache-keys';

// The page cache in front of the public directory's reads (docs/pages.md "Caching"): the home page and its
// search, category pages, tool pages and GET /api/v1/tools. A handler opts an answer in through cacheableAnswer();
// the page is then kept for everyone at the listing version it was rendered at, and served again, with its ETag,
// until the listing changes or it is PAGE_CACHE_TTL_SECONDS old. Where it sits, and what each route's key is made
// of: ./page-cache-keys.ts.

/**
 * Cache-Control of an answer that is the same for every anonymous visitor: browsers and shared caches may keep it
 * a minute, and use it for five more while they revalidate (a 304 when nothing changed).
 */
export const PUBLIC_CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=300';
/** An answer to a request with the session cookie may be personal: only the browser keeps it, and asks again. */
export const PERSONAL_CACHE_CONTROL = 'private, no-cache';

/** Headers that belong to one request or one client, never to a page kept for everyone. */
const PER_REQUEST = new Set([
  'x-request-id',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'retry-after',
  'x-cache',
  'age',
  'set-cookie',
]);
const utf8 = new TextEncoder();

/**
 * A validator of the exact bytes, computed once per render: two 32-bit multiplicative hashes over the bytes read four
 * at a time, and the length. An ETag needs no resistance to a deliberate collision (a client only ever sends back one
 * it was given for the same URL); SHA-256 of a 30 KB page cost ~70 µs of CPU, this ~4 µs for a search's 7 KB
 * (~20 µs when it read the text's characters one by one).
 */
function etagOf(bytes: Uint8Array): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  // A TextEncoder's answer starts its own buffer, so it can be read as 32-bit words (in the machine's byte order:
  // the same server always gives the same tag for the same bytes, which is all a validator needs).
  const words = bytes.byteOffset % 4 === 0 ? new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length >>> 2) : [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    h1 = Math.imul(h1 ^ w, 2654435761);
    h2 = Math.imul(h2 ^ w, 1597334677);
  }
  for (let i = words.length * 4; i < bytes.length; i++) {
    const c = bytes[i]!;
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  const hex = (n: number) => (n >>> 0).toString(16).padStart(8, '0');
  return `"${hex(h1)}${hex(h2)}-${bytes.length.toString(36)}"`;
}

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/**
 * A 200 answer that is the same for every anonymous visitor (the handler has checked its limit and done its work):
 * sent with Cache-Control (PUBLIC_CACHE_CONTROL unless the route says otherwise), Vary: Cookie and an ETag (304
 * when the client holds it), and handed to the page cache when the route has one.
 * Headers are set before the response exists, so it keeps @hono/node-server's fast path.
 * @example
 * return cacheableAnswer(c, JSON.stringify(page), 'application/json');
 */
export function cacheableAnswer(
  c: Context<AppEnv>,
  text: string,
  contentType: string,
  cacheControl: string = PUBLIC_CACHE_CONTROL,
): Response {
  // Encoded once: the same bytes are hashed, sent (node-server writes bytes as they are; a string it would measure
  // and encode again) and kept by the page cache. (hono/html hands out String objects: String() makes a primitive.)
  const body = utf8.encode(String(text));
  const state = c.get('pageCache');
  const etag = etagOf(body);
  c.header('Cache-Control', state?.shared === false ? PERSONAL_CACHE_CONTROL : cacheControl);
  c.header('Vary', 'Cookie');
  c.header('ETag', etag);
  if (state?.shared) {
    c.header('X-Cache', 'miss');
    state.answer = { body, contentType };
  }
  if (matches(c.req.header('if-none-match'), etag)) return c.body(null, 304);
  return c.body(body, 200, { 'Content-Type': contentType });
}

/** Answers a kept page: 304 when the client holds these bytes already, else the page, with how old it is. */
function answerKept(c: Context<AppEnv>, page: CachedPage): Response {
  const headers: Record<string, string> = {};
  for (const [name, value] of page.headers) headers[name] = value;
  headers['x-cache'] = 'hit';
  headers.age = String(Math.max(0, Math.floor((Date.now() - page.storedAt) / 1000)));
  if (matches(c.req.header('if-none-match'), headers.etag ?? '')) return c.body(null, 304, headers);
  return c.body(page.body, page.status as 200, headers);
}

/**
 * The page cache of one route, keyed on what `reads` says the route reads (./page-cache-keys.ts).
 * Every anonymous GET first learns the listing version (on Node one primary-key read of a one-row table, so a
 * page is never served after a change committed before the request; on Workers the version read in the last
 * second). A hit is answered before the handler, so before its rate-limit check: it runs no other statement and
 * costs less than the limiter itself, so a refusal would save nothing (docs/pages.md "Caching and rate limits").
 * A miss runs the handler: limiter first, then the work. The key is also this page's identity for the statistics
 * (`pageKey`: a card counts one impression per page and client, docs/stats.md), for signed-in visitors too.
 */
export function pageCache(reads: QueryReads): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const deps = c.get('deps');
    if (c.req.method !== 'GET') return next();
    const key = pageKey(c, reads);
    if (key) c.set('pageKey', key);
    // The session cookie's presence only (no lookup): the page header then says "Account" (functions/pages/layout.ts).
    if (readSessionCookie(c) !== undefined) {
      c.set('pageCache', { shared: false });
      return next();
    }
    // A request the cache may not answer (a parameter given twice) is rendered, and its answer kept for no one.
    if (!key) return next();
    // Read before anything is rendered, so a page's data is at least as new as the version it is kept under.
    const version = await deps.listingVersion.current(deps.defer);
    const stored = await deps.pageCache.get(key, version);
    if (stored) return answerKept(c, stored);
    const state: PageCacheState = { shared: true };
    c.set('pageCache', state);
    await next();
    const answer = state.answer;
    if (!answer) return; // not a cacheable answer (an error, a refusal, a redirect)
    // Reading the headers of the answer does not rebuild it; this client's own ones are left out (and a 304 has no
    // Content-Type of its own).
    const headers: Array<[string, string]> = [...c.res.headers].filter(
      ([name]) => !PER_REQUEST.has(name) && name !== 'content-type',
    );
    headers.push(['content-type', answer.contentType]);
    deps.defer(deps.pageCache.put(key, version, { status: 200, headers, body: answer.body, storedAt: Date.now() }));
  };
}
