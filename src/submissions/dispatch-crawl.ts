import type { Deps } from '../deps';

/**
 * Hands a queued site to the pipeline, off the response path, for its `attempt`-th crawl (1 for a new
 * submission; a retry's next attempt number). The id is the one the sweep would use for that attempt, so the
 * provider drops a doubled publish. If this publish is lost, the sweep re-dispatches sites queued for more than
 * two minutes, so nothing stays queued silently.
 */
export function dispatchCrawl(deps: Deps, siteId: string, attempt = 1): void {
  deps.defer(deps.queue.enqueue('crawl', { site_id: siteId }, { deduplicationId: `crawl-${siteId}-${attempt}` }));
}
