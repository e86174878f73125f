// The re-check's fetch of a live tool (docs/health.md): the crawl's safe fetch, limits and deadline, made polite
// (conditional request, a user agent the caller names) and told where to stop following redirects. It reports what
// the site did; what that means for the listing is the caller's rule (src/health/).
import type { Resolver } from '../adapters/resolver/resolver';
import { CrawlDeadlineError } from './crawl-failures';
import { CRAWL_DEFAULTS } from './crawl-page';
import type { CrawlFailure, PageMetadata } from './crawl-result';
import { decodeHtml, mediaType } from './decode-html';
import { extractPageMetadata } from './html-metadata';
import { readBoundedBody } from './read-body';
import { discardBody, fetchFollowingCheckedRedirects } from './safe-fetch';

export interface PageCheckOptions {
  fetch: typeof fetch;
  resolver: Resolver;
  allowPrivate: boolean;
  userAgent: string;
  /** Validators of the last full answer: a 304 then costs the site no body. */
  etag?: string | null;
  lastModified?: string | null;
  /** A redirect to `to` is followed only when this says so; otherwise the check stops there (`redirected_away`). */
  mayFollow: (from: URL, to: URL) => boolean;
  /** Default: the crawl's (10 s, 2 MiB, 5 redirects). */
  timeoutMs?: number;
  maxBytes?: number;
}

export type PageCheck =
  /** The site answered (any status, 304 included); the page's metadata when it sent readable HTML. */
  | {
      kind: 'answered';
      status: number;
      finalUrl: string;
      etag: string | null;
      lastModified: string | null;
      metadata: PageMetadata | null;
    }
  /** A redirect the caller would not follow: the check stopped at `from`, which leads to `to`. */
  | { kind: 'redirected_away'; from: string; to: string }
  | { kind: 'failed'; error: CrawlFailure };

const HTML_MEDIA_TYPES = new Set(['text/html', 'application/xhtml+xml']);

/** Checks `url` once. Never throws for anything the site can cause. */
export async function checkPage(url: string, options: PageCheckOptions): Promise<PageCheck> {
  const timeoutMs = options.timeoutMs ?? CRAWL_DEFAULTS.timeoutMs;
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new CrawlDeadlineError(`the check took longer than ${timeoutMs} ms`)),
    timeoutMs,
  );
  try {
    const headers: Record<string, string> = {
      'user-agent': options.userAgent,
      accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1',
    };
    if (options.etag) headers['if-none-match'] = options.etag;
    if (options.lastModified) headers['if-modified-since'] = options.lastModified;
    const fetched = await fetchFollowingCheckedRedirects(url, {
      fetch: options.fetch,
      resolver: options.resolver,
      allowPrivate: options.allowPrivate,
      maxRedirects: CRAWL_DEFAULTS.maxRedirects,
      signal: controller.signal,
      headers,
      mayFollow: options.mayFollow,
    });
    if (!fetched.ok) return { kind: 'failed', error: fetched.error };
    const { response, url: finalUrl } = fetched;
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && response.status !== 304 && location) {
      discardBody(response);
      return { kind: 'redirected_away', from: finalUrl.href, to: new URL(location, finalUrl).href };
    }
    const answered = {
      kind: 'answered' as const,
      status: response.status,
      finalUrl: finalUrl.href,
      etag: response.headers.get('etag'),
      lastModified: response.headers.get('last-modified'),
    };
    const contentType = response.headers.get('content-type');
    if (response.status !== 200 || !HTML_MEDIA_TYPES.has(mediaType(contentType))) {
      discardBody(response);
      return { ...answered, metadata: null };
    }
    const body = await readBoundedBody(response, options.maxBytes ?? CRAWL_DEFAULTS.maxBytes, controller.signal);
    if (!body.ok) {
      // A page past the cap still answered: the site is up, only its metadata is unread.
      return body.error.kind === 'too_large' ? { ...answered, metadata: null } : { kind: 'failed', error: body.error };
    }
    return { ...answered, metadata: extractPageMetadata(decodeHtml(body.bytes, contentType), finalUrl.href) };
  } finally {
    clearTimeout(timer);
    if (!controller.signal.aborted) controller.abort(new Error('check finished'));
  }
}

/** What a robots.txt fetch found: its text, or nothing to obey (missing, an error, unreadable). */
export type RobotsFetch = { found: true; text: string } | { found: false };

/** Robots files larger than this are read no further (Google reads 500 KiB). */
const ROBOTS_MAX_BYTES = 500 * 1024;

/** GETs `{origin}/robots.txt` with the same safety; anything but a 200 means no rules. */
export async function fetchRobotsTxt(
  origin: string,
  options: Omit<PageCheckOptions, 'etag' | 'lastModified' | 'maxBytes'>,
): Promise<RobotsFetch> {
  const timeoutMs = options.timeoutMs ?? CRAWL_DEFAULTS.timeoutMs;
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new CrawlDeadlineError(`robots.txt took longer than ${timeoutMs} ms`)),
    timeoutMs,
  );
  try {
    const fetched = await fetchFollowingCheckedRedirects(new URL('/robots.txt', origin).href, {
      fetch: options.fetch,
      resolver: options.resolver,
      allowPrivate: options.allowPrivate,
      maxRedirects: CRAWL_DEFAULTS.maxRedirects,
      signal: controller.signal,
      headers: { 'user-agent': options.userAgent, accept: 'text/plain' },
      mayFollow: options.mayFollow,
    });
    if (!fetched.ok) return { found: false };
    if (fetched.response.status !== 200) {
      discardBody(fetched.response);
      return { found: false };
    }
    const body = await readBoundedBody(fetched.response, ROBOTS_MAX_BYTES, controller.signal);
    return body.ok ? { found: true, text: new TextDecoder().decode(body.bytes) } : { found: false };
  } finally {
    clearTimeout(timer);
    if (!controller.signal.aborted) controller.abort(new Error('robots.txt finished'));
  }
}
