import type { Context, MiddlewareHandler } from 'hono';
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import type { CachedPage } from '../../src/adapters/page-cache/types';
import { SESSION_COOKIE } from '../pages/account/cookies';
import type { AppEnv } from '../types';

// The page cache in front of the public directory's reads (docs/pages.md "Caching"): the home page and its
// search, category pages, tool pages and GET /api/v1/tools. A handler opts a response in by answering 200 with
// PUBLIC_CACHE_CONTROL; the response is then kept for everyone at the listing version it was rendered at, and
// served again, with an ETag, until the listing changes or it is PAGE_CACHE_TTL_SECONDS old.

/**
 * Cache-Control of a response that is the same for every anonymous visitor: browsers and shared caches may keep
 * it a minute, and use it for five more while they revalidate (a 304 when nothing changed).
 */
export const PUBLIC_CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=300';
/** A response to a request with the session cookie may be personal: only the browser keeps it, and asks again. */
export const PERSONAL_CACHE_CONTROL = 'private, no-cache';

/** Where the cache sits (functions/app.ts): the routes whose 200 answers are the same for every anonymous visitor. */
export const PAGE_CACHE_PATHS = ['/', '/tools/:slug', '/categories/:slug', '/api/v1/tools'] as const;

/** Headers that belong to one request or one client, never to a page kept for everyone. */
const PER_REQUEST = new Set(['x-request-id', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'retry-after', 'x-cache', 'age']);
const CACHEABLE_TYPE = /^(text\/html|application\/json)\b/;
const SESSION = new RegExp(`(?:^|;)\\s*${SESSION_COOKIE}=`);

/** Presence only: whether the visitor is signed in is never looked up here (no statement, no verification). */
export const carriesSession = (cookie: string | undefined) => cookie !== undefined && SESSION.test(cookie);

/** A strong validator of the exact bytes (computed once, when the page is stored). */
const etagOf = (body: string) => `"${btoa(String.fromCharCode(...sha256(utf8ToBytes(body)).subarray(0, 18)))}"`;

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/** Answers a kept page: 304 when the client holds these bytes already, else the page, with how old it is. */
function answer(c: Context<AppEnv>, page: CachedPage, state: 'hit' | 'miss'): Response {
  const headers: Record<string, string> = {};
  for (const [name, value] of page.headers) headers[name] = value;
  headers['x-cache'] = state;
  if (state === 'hit') headers.age = String(Math.max(0, Math.floor((Date.now() - page.storedAt) / 1000)));
  if (matches(c.req.header('if-none-match'), headers.etag ?? '')) return c.body(null, 304, headers);
  return c.body(page.body, page.status as 200, headers);
}

/**
 * Every anonymous GET first learns the listing version (on Node one primary-key read of a one-row table, so a
 * page is never served after a change committed before the request; on Workers the version read in the last
 * second). A hit is answered before the handler, so before its rate-limit check: it runs no other statement and
 * costs less than the limiter itself, so a refusal would save nothing (docs/pages.md "Caching and rate limits").
 * A miss runs the handler: limiter first, then the work.
 */
export const pageCache: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.method !== 'GET' || c.get('deps').pageCache.kind === 'off') return next();
  if (carriesSession(c.req.header('cookie'))) {
    await next();
    // Never kept for others, whatever the handler said; Vary tells a browser its anonymous copy is not this one.
    if (c.res.headers.get('cache-control')?.startsWith('public')) c.header('Cache-Control', PERSONAL_CACHE_CONTROL);
    c.header('Vary', 'Cookie');
    return;
  }
  const deps = c.get('deps');
  const url = c.req.url;
  const key = `${deps.origin}${url.slice(url.indexOf('/', url.indexOf('//') + 2))}`;
  // Read before anything is rendered, so a page's data is at least as new as the version it is kept under.
  const version = await deps.listingVersion.current(deps.defer);
  const stored = await deps.pageCache.get(key, version);
  if (stored) return answer(c, stored, 'hit');
  await next();
  const res = c.res;
  if (res.status !== 200 || res.headers.get('cache-control') !== PUBLIC_CACHE_CONTROL || res.headers.has('set-cookie')) return;
  if (!CACHEABLE_TYPE.test(res.headers.get('content-type') ?? '')) return;
  const body = await res.text();
  const headers: Array<[string, string]> = [...res.headers].filter(([name]) => !PER_REQUEST.has(name));
  headers.push(['etag', etagOf(body)], ['vary', 'Cookie']);
  const page: CachedPage = { status: 200, headers, body, storedAt: Date.now() };
  deps.defer(deps.pageCache.put(key, version, page));
  // Built on the handler's response, so this client's own headers (request id, RateLimit-*) stay on it.
  c.res = answer(c, page, 'miss');
};
