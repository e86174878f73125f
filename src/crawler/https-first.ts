// An http:// address is crawled over https first: most sites answer there, and the page then comes over a channel
// nobody on the way can rewrite. Only when the https form does not answer with a page is the address crawled
// over http, as given, and the caller learns that it was (the submitter is told which one was used).
import { crawlPage, type CrawlOptions } from './crawl-page';
import type { CrawlResult } from './crawl-result';
import type { CrawlFailureKind } from '../catalog/crawl-failure-kinds';

export interface HttpsFirstResult {
  result: CrawlResult;
  /** The https form of an http:// address was tried and gave no page, so the http address was crawled. */
  httpsUnanswered: boolean;
}

/** Failures the http form would meet as well (the same host name and address): no second try. */
const SAME_FOR_HTTP = new Set<CrawlFailureKind>(['dns_error', 'blocked_address', 'bad_url']);

/**
 * The https form of `url` when it is worth trying first: an http:// address on the default port. An explicit port
 * (`http://host:8080/`) names a plain-http service; https on that port would not be the same site.
 */
export function httpsFormOf(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'http:' || parsed.port !== '') return undefined;
  parsed.protocol = 'https:';
  return parsed.href;
}

/**
 * Crawls `url`, an http:// one over https first (with half of the time budget, so both tries fit the crawl's usual
 * bound), falling back to the address as given when the https form gives no page. Never throws for anything the
 * target can cause.
 */
export async function crawlPreferringHttps(url: string, options: CrawlOptions): Promise<HttpsFirstResult> {
  const https = httpsFormOf(url);
  if (!https) return { result: await crawlPage(url, options), httpsUnanswered: false };
  const budget = options.timeoutMs ?? 10_000;
  const first = await crawlPage(https, { ...options, timeoutMs: Math.max(1, Math.floor(budget / 2)) });
  if (first.ok || SAME_FOR_HTTP.has(first.error.kind)) return { result: first, httpsUnanswered: false };
  return { result: await crawlPage(url, options), httpsUnanswered: true };
}
