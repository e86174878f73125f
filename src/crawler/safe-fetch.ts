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
  /** GET by default. A POST's body is re-sent on 307/308 and dropped (as GET) on 301/302/303, as browsers do. */
  method?: 'GET' | 'POST';
  body?: string;
  /**
   * Whether a redirect from `from` to `to` is followed; when not, the redirect response itself is the result (the
   * caller reads its Location). Default: every redirect is followed. Domain proofs follow none to another host.
   */
  mayFollow?: (from: URL, to: URL) => boolean;
}

export type SafeFetchResult = { ok: true; response: Response; url: URL } | { ok: false; error: CrawlFailure };

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** Fetches `startUrl`, following at most `maxRedirects` redirects, each hop re-checked by `checkTarget`. */
export async function fetchFollowingCheckedRedirects(
  startUrl: string,
  options: SafeFetchOptions,
): Promise<SafeFetchResult> {
  let target: string | URL = startUrl;
  let method = options.method ?? 'GET';
  let body = method === 'POST' ? options.body : undefined;
  for (let redirectsFollowed = 0; ; redirectsFollowed++) {
    let response: Response;
    let url: URL;
    try {
      const decision = await checkTarget(target, options);
      if (!decision.ok) return decision;
      url = decision.url;
      response = await abortable(
        options.fetch(url.href, {
          method,
          redirect: 'manual',
          headers: options.headers,
          ...(body !== undefined && { body }),
          signal: options.signal,
        }),
        options.signal,
      );
    } catch (error) {
      return { ok: false, error: describeFailure(error, options.signal) };
    }
    if (!REDIRECT_STATUSES.has(response.status)) return { ok: true, response, url };

    let next: URL | undefined;
    try {
      next = new URL(response.headers.get('location') ?? '', url);
    } catch {
      next = undefined;
    }
    if (next && options.mayFollow && !options.mayFollow(url, next)) return { ok: true, response, url };
    discardBody(response);
    if (redirectsFollowed >= options.maxRedirects) {
      return crawlFailure('too_many_redirects', `more than ${options.maxRedirects} redirects (last at ${url.href})`);
    }
    const location = response.headers.get('location');
    if (!location)
      return crawlFailure('http_error', `redirect ${response.status} without a Location header`, response.status);
    try {
      target = new URL(location, url);
      if (response.status !== 307 && response.status !== 308) {
        method = 'GET';
        body = undefined;
      }
    } catch {
      return crawlFailure('bad_url', `redirect to an invalid URL: ${location.slice(0, 200)}`);
    }
  }
}

/** Releases a response we will not read (its connection must not wait for us). */
export function discardBody(response: Response): void {
  response.body?.cancel().catch(() => undefined);
}
