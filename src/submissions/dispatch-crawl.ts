import type { Deps } from '../deps';

/**
 * Hands a newly queued site to the pipeline, off the response path. If this publish is lost, the sweep
 * re-dispatches sites queued for more than two minutes, so nothing stays queued silently.
 */
export function dispatchCrawl(deps: Deps, siteId: string): void {
  deps.defer(deps.queue.enqueue('crawl', { site_id: siteId }, { deduplicationId: `crawl-${siteId}-1` }));
}
