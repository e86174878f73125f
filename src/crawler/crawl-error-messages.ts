// The one table from a crawl failure's kind to what a submitter is told (REST and MCP `crawl_error`, the CLI,
// /account, and site_history notes). A message names the kind of failure, never our network: no resolved
// address, no internal host name, no exception text. That detail stays in `sites.crawl_error`, for operators.
import { CRAWL_DEFAULTS } from './crawl-page';
import { crawlFailureKinds, type CrawlFailureKind } from '../catalog/crawl-failure-kinds';

/**
 * The site record's `crawl_error` (present only when status is crawl_failed); its shape is crawlErrorSchema
 * (src/submissions/record-schemas.ts), spelled here so the crawler knows nothing of submissions.
 */
export interface PublicCrawlError {
  code: CrawlFailureKind;
  message: string;
}

const MIB = 1024 * 1024;

const MESSAGES: Record<CrawlFailureKind, (httpStatus: number | null) => string> = {
  blocked_address: () => 'the address is not public',
  blocked_port: () => 'only ports 80 and 443 are crawled',
  bad_url: () => 'not an http or https address that can be crawled',
  dns_error: () => 'the host name could not be resolved',
  network_error: () => 'the site could not be reached',
  timeout: () => 'timed out',
  // Only a status the site itself sent (an integer column) is ever put into a message.
  http_error: (httpStatus) =>
    httpStatus === null ? 'the site answered with an HTTP error' : `the site answered HTTP ${httpStatus}`,
  not_html: () => 'not an HTML page',
  too_large: () => `the page is larger than ${CRAWL_DEFAULTS.maxBytes / MIB} MiB`,
  too_many_redirects: () => `more than ${CRAWL_DEFAULTS.maxRedirects} redirects`,
  did_not_finish: () => 'the crawl did not finish',
  crawler_error: () => 'the crawl failed on our side',
};

const isKind = (value: unknown): value is CrawlFailureKind => (crawlFailureKinds as readonly unknown[]).includes(value);

/**
 * What a submitter reads about a crawl failure. Takes the stored columns as they are: an unknown or missing
 * kind (a row older than the kind column) reads as `crawler_error` rather than failing the read.
 */
export function publicCrawlError(
  kind: string | null | undefined,
  httpStatus?: number | string | null,
): PublicCrawlError {
  const code = isKind(kind) ? kind : 'crawler_error';
  const status = Number(httpStatus);
  const shownStatus =
    code === 'http_error' && Number.isInteger(status) && status >= 100 && status <= 599 ? status : null;
  return { code, message: MESSAGES[code](shownStatus) };
}
