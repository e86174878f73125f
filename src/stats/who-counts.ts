import { isbot } from 'isbot';

// Which requests are people (docs/stats.md "What is not counted"). Nothing of the request is kept: the user
// agent is looked at here and dropped; no cookie, address or agent string reaches any store.

/** The request headers the decision needs (a Headers object or a lookup function). */
export type HeaderLookup = (name: string) => string | undefined | null;

/**
 * False for crawlers and other bots (the `isbot` list, maintained upstream; a request without a user agent is
 * no browser either) and for speculative loads: a prefetch or prerender (`Sec-Purpose: prefetch`, the older
 * `Purpose: prefetch` / `X-Purpose: preview` / `X-Moz: prefetch`) is not someone looking at the page.
 */
export function isCountedRequest(header: HeaderLookup): boolean {
  const agent = header('user-agent');
  if (!agent || isbot(agent)) return false;
  if (/\bprefetch\b/i.test(header('sec-purpose') ?? '')) return false;
  if (
    /\b(prefetch|preview)\b/i.test(`${header('purpose') ?? ''} ${header('x-purpose') ?? ''} ${header('x-moz') ?? ''}`)
  )
    return false;
  return true;
}
