// GET with redirects followed by hand, so every hop goes through the full target check before any packet.
import type { Resolver } from '../adapters/resolver/resolver';
import { abortable } from './abortable';
import { describeFailure } from './crawl-failures';
import { crawlFailure, type CrawlFailure } from './crawl-result';
import { checkTarget } from './resolve-and-check';

export interface SafeFetchOptions {
  fetch: typeof fetch;
  resolver: Resolver;
  allowPrivate: boolean;
  maxRedirects: number;
  signal: AbortSignal;
  headers: Record<string, string>;
}

export type SafeFetchResult = { ok: true; response: Response; url: URL } | { ok: false; error: CrawlFailure };

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** Fetches `startUrl`, following at most `maxRedirects` redirects, each hop re-checked by `checkTarget`. */
export async function fetchFollowingCheckedRedirects(
  startUrl: string,
  options: SafeFetchOptions,
): Promise<SafeFetchResult> {
  let target: string | URL = startUrl;
  for (let redirectsFollowed = 0; ; redirectsFollowed++) {
    let response: Response;
    let url: URL;
    try {
      const decision = await checkTarget(target, options);
      if (!decision.ok) return decision;
      url = decision.url;
      response = await abortable(
        options.fetch(url.href, {
          method: 'GET',
          redirect: 'manual',
          headers: options.headers,
          signal: options.signal,
        }),
        options.signal,
      );
    } catch (error) {
      return { ok: false, error: describeFailure(error, options.signal) };
    }
    if (!REDIRECT_STATUSES.has(response.status)) return { ok: true, response, url };

    discardBody(response);
    if (redirectsFollowed >= options.maxRedirects) {
      return crawlFailure('too_many_redirects', `more than ${options.maxRedirects} redirects (last at ${url.href})`);
    }
    const location = response.headers.get('location');
    if (!location)
      return crawlFailure('http_error', `redirect ${response.status} without a Location header`, response.status);
    try {
      target = new URL(location, url);
    } catch {
      return crawlFailure('bad_url', `redirect to an invalid URL: ${location.slice(0, 200)}`);
    }
  }
}

/** Releases a response we will not read (its connection must not wait for us). */
export function discardBody(response: Response): void {
  response.body?.cancel().catch(() => undefined);
}
