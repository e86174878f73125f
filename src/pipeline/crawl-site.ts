import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { ServiceError } from '../errors';
import { crawlPage, type CrawlFailure } from '../crawler';
import { publicCrawlError } from '../crawler/crawl-error-messages';
import { toStoredMetadata } from './stored-metadata';
import { fetchSiteMedia } from '../media/fetch-site-media';

export type CrawlOutcome =
  | { outcome: 'skipped'; reason: string }
  | { outcome: 'pending_review' }
  | { outcome: 'crawl_failed'; error: CrawlFailure };

/**
 * The crawl step. Claims the site with one conditional statement (queued → crawling, attempt counted), so a
 * duplicate delivery finds nothing to claim and is a no-op. A success keeps the page's image and icon as our own
 * media (src/media/fetch-site-media.ts; an image that fails never fails the crawl), stores the metadata and moves
 * to pending_review, then enqueues the review. A failure with attempts left puts the site back to queued and
 * THROWS (the job answers non-2xx, QStash or the local queue retries); the last allowed attempt ends in
 * crawl_failed. A failure is stored twice over: its kind (what submitters are told, also the status_note that
 * feeds site_history) and its detail (addresses, internal names, exception text), which only operators see.
 */
export async function crawlSite(deps: Deps, siteId: string): Promise<CrawlOutcome> {
  const [claimed] = await queryRows<{ url: string; crawl_attempts: number; crawl_attempt_offset: number }>(
    deps.db,
    sql`UPDATE sites SET status = 'crawling', crawl_attempts = crawl_attempts + 1,
          status_note = 'crawl attempt ' || (crawl_attempts + 1 - crawl_attempt_offset)
        WHERE id = ${siteId}::uuid AND status = 'queued'
        RETURNING url, crawl_attempts, crawl_attempt_offset`,
  );
  if (!claimed) return { outcome: 'skipped', reason: 'not queued (already handled or unknown)' };
  // `attempt` identifies the attempt (claims and deduplication ids); `round` counts it within the current round,
  // which a submitter's retry starts afresh (src/submissions/retry.ts).
  const attempt = Number(claimed.crawl_attempts);
  const round = attempt - Number(claimed.crawl_attempt_offset);

  const result = await crawlPage(claimed.url, {
    fetch: deps.crawl.fetch,
    resolver: deps.crawl.resolver,
    allowPrivate: deps.config.crawl.allowPrivate,
    timeoutMs: deps.crawl.timeoutMs,
  }).catch((error: unknown): { ok: false; error: CrawlFailure } => ({
    ok: false,
    error: { kind: 'crawler_error', detail: `crawler error: ${String(error)}` },
  }));

  if (result.ok) {
    // The page's image and icon become our own media now; one that cannot be kept leaves the placeholder.
    const media = await fetchSiteMedia(deps, result.metadata, { siteId });
    const metadata = toStoredMetadata(result.metadata, result.finalUrl, media, deps.now());
    const [moved] = await queryRows<{ id: string }>(
      deps.db,
      sql`UPDATE sites SET status = 'pending_review', metadata = ${JSON.stringify(metadata)}::jsonb,
            crawled_at = now(), crawl_error = NULL, crawl_error_kind = NULL, crawl_error_http_status = NULL,
            status_note = 'crawled: ' || ${result.finalUrl}::text
          WHERE id = ${siteId}::uuid AND status = 'crawling' AND crawl_attempts = ${attempt}
          RETURNING id`,
    );
    if (!moved) return { outcome: 'skipped', reason: 'site changed while crawling' };
    await deps.queue.enqueue('review', { site_id: siteId }, { deduplicationId: `review-${siteId}-${attempt}` });
    return { outcome: 'pending_review' };
  }

  const failure = result.error;
  const httpStatus = failure.kind === 'http_error' ? (failure.status ?? null) : null;
  const told = publicCrawlError(failure.kind, httpStatus).message;
  const final = round >= deps.config.crawl.maxAttempts;
  await queryRows(
    deps.db,
    sql`UPDATE sites SET status = ${final ? 'crawl_failed' : 'queued'}::text, crawl_error = ${failure.detail}::text,
          crawl_error_kind = ${failure.kind}::text, crawl_error_http_status = ${httpStatus}::integer,
          status_note = ${`attempt ${round} of ${deps.config.crawl.maxAttempts} failed: ${told}`}::text
        WHERE id = ${siteId}::uuid AND status = 'crawling' AND crawl_attempts = ${attempt}`,
  );
  deps.log.warn('crawl failed', { site_id: siteId, attempt, final, kind: failure.kind, err: failure.detail });
  if (final) return { outcome: 'crawl_failed', error: failure };
  throw new ServiceError(
    'service_unavailable',
    `Crawl attempt ${attempt} failed (${failure.kind}); it will be retried.`,
  );
}
