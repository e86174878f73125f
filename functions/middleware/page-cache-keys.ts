import type { Context } from 'hono';
import type { AppEnv } from '../types';

// What each cached route reads from its query string, declared once: the handlers read their parameters through
// these functions, and the page cache (./page-cache.ts) keys on exactly what they return. A parameter no route reads
// (`?junk=1`, `?utm_source=…`) is then no part of any key: it neither creates an entry nor evicts one, and the page
// it asks for is served from the entry of the page without it.

/** The query parameters a route reads, by name, as the route reads them (undefined: absent). */
export type QueryReads = (c: Context<AppEnv>) => Record<string, string | undefined>;

/** A search's words as the home page uses them: trimmed, at most 100 characters ('' for no search). */
export const searchTerms = (c: Context<AppEnv>): string => (c.req.query('q') ?? '').trim().slice(0, 100);

/** A listing page (the home page without a search, a category) reads its position only. */
export const listingReads: QueryReads = (c) => ({ after: c.req.query('after'), before: c.req.query('before') });

/**
 * The home page: a search reads its words, its cursor, whether to search them as typed (`correct=false`; any other
 * value corrects, so it is no part of the key) and whether to show only tools with an MCP server (`has_mcp=true`);
 * without words it is the listing.
 */
export const homeReads: QueryReads = (c) => {
  const q = searchTerms(c);
  return q
    ? {
        q,
        cursor: c.req.query('cursor'),
        correct: c.req.query('correct') === 'false' ? 'false' : undefined,
        // Only listings whose MCP server answered (any other value shows all, so it is no part of the key).
        has_mcp: c.req.query('has_mcp') === 'true' ? 'true' : undefined,
      }
    : listingReads(c);
};

/** The parameters of GET /api/v1/tools (its zod query schema has exactly these; a test holds them equal). */
export const TOOLS_SEARCH_PARAMS = [
  'q',
  'limit',
  'cursor',
  'category',
  'correct',
  'health',
  'verified',
  'has_mcp',
] as const;
const toolsSearchReads: QueryReads = (c) =>
  Object.fromEntries(TOOLS_SEARCH_PARAMS.map((name) => [name, c.req.query(name)]));

/** The routes the page cache sits on (functions/app.ts mounts it on each) and what each reads. */
export const PAGE_CACHE_ROUTES: ReadonlyArray<readonly [path: string, reads: QueryReads]> = [
  ['/', homeReads],
  ['/tools/:slug', () => ({})],
  ['/categories/:slug', listingReads],
  ['/api/v1/tools', toolsSearchReads],
  ['/feed.xml', () => ({})],
];

/**
 * The key of this request's page: our origin, the path and the parameters the route reads, in its order, as it
 * reads them (so two requests with one key get the same answer from the handler). Undefined when a parameter the
 * route reads comes more than once: the JSON search refuses that (400), so it is never answered from a kept page.
 * @example
 * pageKey(c, homeReads) // 'http://tooldir.test/?q=writing' for /?q=writing&utm_source=x
 */
export function pageKey(c: Context<AppEnv>, reads: QueryReads): string | undefined {
  let query = '';
  for (const [name, value] of Object.entries(reads(c))) {
    if (value === undefined) continue;
    if ((c.req.queries(name)?.length ?? 0) > 1) return undefined;
    query += `${query ? '&' : '?'}${name}=${encodeURIComponent(value)}`;
  }
  return `${c.get('deps').origin}${c.req.path}${query}`;
}
