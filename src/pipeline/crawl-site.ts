import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { ServiceError } from '../errors';
import { crawlPreferringHttps, type CrawlFailure, type HttpsFirstResult } from '../crawler';
import { notifyCrawlFailedSite } from './notify-crawl-failed';
import { HTTP_FALLBACK_NOTE } from '../submissions/history-reasons';
import { publicCrawlError } from '../crawler/crawl-error-messages';
import { toStoredMetadata } from './stored-metadata';
import { fetchSiteMedia } from '../media/fetch-site-media';
import { probeSiteMcpQuietly } from '../mcp-servers/probe-site';

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
  const [claimed] = await queryRows<{
    url: string;
    mcp_url: string | null;
    crawl_attempts: number;
    crawl_attempt_offset: number;
  }>(
    deps.db,
    sql`UPDATE sites SET status = 'crawling', crawl_attempts = crawl_attempts + 1,
          status_note = 'crawl attempt ' || (crawl_attempts + 1 - crawl_attempt_offset)
        WHERE id = ${siteId}::uuid AND status = 'queued'
        RETURNING url, mcp_url, crawl_attempts, crawl_attempt_offset`,
  );
  if (!claimed) return { outcome: 'skipped', reason: 'not queued (already handled or unknown)' };
  // `attempt` identifies the attempt (claims and deduplication ids); `round` counts it within the current round,
  // which a submitter's retry starts afresh (src/submissions/retry.ts).
  const attempt = Number(claimed.crawl_attempts);
  const round = attempt - Number(claimed.crawl_attempt_offset);

  const { result, httpsUnanswered } = await crawlPreferringHttps(claimed.url, {
    fetch: deps.crawl.fetch,
    resolver: deps.crawl.resolver,
    allowPrivate: deps.config.crawl.allowPrivate,
    timeoutMs: deps.crawl.timeoutMs,
  }).catch(
    (error: unknown): HttpsFirstResult => ({
      result: {
        ok: false,
        error: { kind: 'crawler_error', detail: `crawler error: ${String(error)}` } satisfies CrawlFailure,
      },
      httpsUnanswered: false,
    }),
  );

  if (result.ok) {
    // The page's image and icon become our own media now; one that cannot be kept leaves the placeholder.
    const media = await fetchSiteMedia(deps, result.metadata, { siteId });
    // Which scheme was used is the submitter's to know (the record's crawled_url, the page, the history note).
    const metadata = {
      ...toStoredMetadata(result.metadata, result.finalUrl, media, deps.now()),
      httpsUnanswered: httpsUnanswered ? 'true' : null,
    };
    const note = httpsUnanswered ? `${HTTP_FALLBACK_NOTE} (${result.finalUrl})` : `crawled: ${result.finalUrl}`;
    const [moved] = await queryRows<{ id: string }>(
      deps.db,
      sql`UPDATE sites SET status = 'pending_review', metadata = ${JSON.stringify(metadata)}::jsonb,
            crawled_at = now(), crawl_error = NULL, crawl_error_kind = NULL, crawl_error_http_status = NULL,
            status_note = ${note}::text
          WHERE id = ${siteId}::uuid AND status = 'crawling' AND crawl_attempts = ${attempt}
          RETURNING id`,
    );
    if (!moved) return { outcome: 'skipped', reason: 'site changed while crawling' };
    // The listing's MCP server, after its page: what it finds is recorded, and no MCP fault fails the crawl.
    if (claimed.mcp_url) await probeSiteMcpQuietly(deps, siteId);
    await deps.queue.enqueue('review', { site_id: siteId }, { deduplicationId: `review-${siteId}-${attempt}` });
    return { outcome: 'pending_review' };
  }

  const failure = result.error;
  const httpStatus = failure.kind === 'http_error' ? (failure.status ?? null) : null;
  const told = publicCrawlError(failure.kind, httpStatus).message;
  const final = round >= deps.config.crawl.maxAttempts;
  const [ended] = await queryRows<{ id: string }>(
    deps.db,
    sql`UPDATE sites SET status = ${final ? 'crawl_failed' : 'queued'}::text, crawl_error = ${failure.detail}::text,
          crawl_error_kind = ${failure.kind}::text, crawl_error_http_status = ${httpStatus}::integer,
          status_note = ${`attempt ${round} of ${deps.config.crawl.maxAttempts} failed: ${told}`}::text
        WHERE id = ${siteId}::uuid AND status = 'crawling' AND crawl_attempts = ${attempt}
        RETURNING id`,
  );
  deps.log.warn('crawl failed', { site_id: siteId, attempt, final, kind: failure.kind, err: failure.detail });
  if (final) {
    // Only the statement that made the transition mails, so a duplicate delivery tells nobody twice.
    if (ended) await notifyCrawlFailedSite(deps, siteId);
    return { outcome: 'crawl_failed', error: failure };
  }
  throw new ServiceError(
    'service_unavailable',
    `Crawl attempt ${attempt} failed (${failure.kind}); it will be retried.`,
  );
}
