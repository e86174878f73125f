// The crawler's outcome types. Failures are values: a closed set of kinds (src/catalog/crawl-failure-kinds.ts; what a
// submitter is told, through src/crawler/crawl-error-messages.ts) plus a detail that only operators ever see.
import type { CrawlFailureKind } from '../catalog/crawl-failure-kinds';

export interface CrawlFailure {
  kind: CrawlFailureKind;
  /**
   * For operators only (logs, the operator API, /admin): it may name resolved addresses, internal host names,
   * redirect targets and raw exception text, so it never reaches a submitter (docs/pipeline.md).
   */
  detail: string;
  /** The HTTP status, when the failure is about a response (http_error, not_html, too_large). */
  status?: number;
}

/** What the crawler keeps for the public page. URLs are absolute http(s) URLs. */
export interface PageMetadata {
  /** <title>, else og:title / twitter:title; whitespace collapsed, at most 200 characters. */
  title: string | null;
  /** meta description, else og:description / twitter:description; at most 500 characters. */
  description: string | null;
  /** og:image (or og:image:url / og:image:secure_url / twitter:image). */
  imageUrl: string | null;
  /** link rel=icon / shortcut icon, else apple-touch-icon, else {origin}/favicon.ico. */
  iconUrl: string;
  /** link rel=canonical. */
  canonicalUrl: string | null;
  /** The URL the page was finally served from, after redirects. */
  finalUrl: string;
  /** <html lang>, when it looks like a language tag. */
  language: string | null;
}

export type CrawlResult =
  | { ok: true; metadata: PageMetadata; finalUrl: string; status: number }
  | { ok: false; error: CrawlFailure };

export function crawlFailure(
  kind: CrawlFailureKind,
  detail: string,
  status?: number,
): { ok: false; error: CrawlFailure } {
  return { ok: false, error: status === undefined ? { kind, detail } : { kind, detail, status } };
}
