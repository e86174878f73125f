// The Node server's own crawl transport (pinned fetch, reserved names) over a resolver that answers nothing: a
// `<name>.localhost` host still reaches loopback (reserved names never ask DNS), and any other lookup fails the test
// and is recorded. For the local flow of domain proofs (CRAWL_ALLOW_PRIVATE=true), end to end.
import { withReservedNames } from '../../src/crawler/reserved-names';
import { createPinnedFetch } from '../../src/crawler/pinned-fetch';
import type { CrawlTransport } from '../../src/deps';

export function localOnlyCrawl(): CrawlTransport & { refused: string[] } {
  const refused: string[] = [];
  const resolver = withReservedNames(async (hostname) => {
    refused.push(hostname);
    throw new Error(`local proof network: no lookup of ${hostname}`);
  });
  return { refused, resolver, fetch: createPinnedFetch({ resolver, allowPrivate: true }) };
}
