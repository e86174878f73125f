// The closed list of ways a crawl attempt can fail: the crawler makes them (src/crawler/), the sites table types its
// crawl_error_kind column with them (src/db/schema/sites.ts), and the API's record schema declares them.

/**
 * Every way a crawl attempt can fail. The crawler produces all but the last two: `did_not_finish` is the
 * sweep's verdict on an attempt that never reported back, `crawler_error` an unexpected exception of ours.
 */
export const crawlFailureKinds = [
  'blocked_address',
  'blocked_port',
  'bad_url',
  'dns_error',
  'network_error',
  'timeout',
  'http_error',
  'not_html',
  'too_large',
  'too_many_redirects',
  'did_not_finish',
  'crawler_error',
] as const;

export type CrawlFailureKind = (typeof crawlFailureKinds)[number];
