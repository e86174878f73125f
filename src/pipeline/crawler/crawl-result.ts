// The crawler's outcome types. Failures are values, so the crawl job can store the last one for operators.

export type CrawlErrorCode =
  | 'blocked_address'
  | 'bad_url'
  | 'too_many_redirects'
  | 'timeout'
  | 'too_large'
  | 'not_html'
  | 'http_error'
  | 'network_error';

export interface CrawlError {
  code: CrawlErrorCode;
  /** Human-readable, meant for operators (it may name the refused address or the HTTP status). */
  message: string;
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
  | { ok: false; error: CrawlError };

export function crawlFailure(code: CrawlErrorCode, message: string, status?: number): { ok: false; error: CrawlError } {
  return { ok: false, error: status === undefined ? { code, message } : { code, message, status } };
}
