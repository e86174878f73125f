// The crawler's entry point: one safe GET of a submitted URL, reduced to page metadata or an error value.
import type { Resolver } from '../adapters/resolver/resolver';
import { CrawlDeadlineError } from './crawl-failures';
import { crawlFailure, type CrawlResult } from './crawl-result';
import { decodeHtml, mediaType } from './decode-html';
import { extractPageMetadata } from './html-metadata';
import { readBoundedBody } from './read-body';
import { discardBody, fetchFollowingCheckedRedirects } from './safe-fetch';

export const CRAWL_DEFAULTS = {
  timeoutMs: 10_000,
  maxBytes: 2 * 1024 * 1024,
  maxRedirects: 5,
  userAgent: 'tooldir-crawler/0.1',
} as const;

const HTML_MEDIA_TYPES = new Set(['text/html', 'application/xhtml+xml']);

export interface CrawlOptions {
  /** The fetch to use. In Node, pass createPinnedFetch(...) so connections go only to checked addresses. */
  fetch: typeof fetch;
  /** Resolves host names for the address check (Node: createNodeDnsResolver, Workers: createDohResolver). */
  resolver: Resolver;
  /** CRAWL_ALLOW_PRIVATE. Default false. */
  allowPrivate?: boolean;
  /** Deadline for the whole crawl: lookups, every hop and the body. Default 10 000 ms. */
  timeoutMs?: number;
  /** Cap on the decompressed body. Default 2 MiB. */
  maxBytes?: number;
  /** Default 5. */
  maxRedirects?: number;
  userAgent?: string;
  /** Lets the caller cancel the crawl early (reported as network_error "aborted"). */
  signal?: AbortSignal;
}

/** Crawls `url` safely and extracts its metadata. Never throws for anything the target can cause. */
export async function crawlPage(url: string, options: CrawlOptions): Promise<CrawlResult> {
  const timeoutMs = options.timeoutMs ?? CRAWL_DEFAULTS.timeoutMs;
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new CrawlDeadlineError(`the crawl took longer than ${timeoutMs} ms`)),
    timeoutMs,
  );
  const onCallerAbort = () => controller.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', onCallerAbort, { once: true });
  if (options.signal?.aborted) onCallerAbort();
  try {
    const fetched = await fetchFollowingCheckedRedirects(url, {
      fetch: options.fetch,
      resolver: options.resolver,
      allowPrivate: options.allowPrivate ?? false,
      maxRedirects: options.maxRedirects ?? CRAWL_DEFAULTS.maxRedirects,
      signal: controller.signal,
      headers: {
        'user-agent': options.userAgent ?? CRAWL_DEFAULTS.userAgent,
        accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1',
      },
    });
    if (!fetched.ok) return fetched;
    const { response, url: finalUrl } = fetched;
    if (!response.ok) {
      discardBody(response);
      return crawlFailure('http_error', `${finalUrl.href} answered HTTP ${response.status}`, response.status);
    }
    const contentType = response.headers.get('content-type');
    if (!HTML_MEDIA_TYPES.has(mediaType(contentType))) {
      discardBody(response);
      return crawlFailure(
        'not_html',
        `${finalUrl.href} is ${mediaType(contentType) || 'of no declared type'}, not HTML`,
        response.status,
      );
    }
    const body = await readBoundedBody(response, options.maxBytes ?? CRAWL_DEFAULTS.maxBytes, controller.signal);
    if (!body.ok) return body;
    const metadata = extractPageMetadata(decodeHtml(body.bytes, contentType), finalUrl.href);
    return { ok: true, metadata, finalUrl: finalUrl.href, status: response.status };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onCallerAbort);
    // Tears down any connection still open on a failure path; harmless once the body has been read.
    if (!controller.signal.aborted) controller.abort(new Error('crawl finished'));
  }
}
