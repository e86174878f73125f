import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { ServiceError } from '../errors';
import { crawlPage, type CrawlError } from './crawler';
import { toStoredMetadata } from './stored-metadata';

export type CrawlOutcome =
  | { outcome: 'skipped'; reason: string }
  | { outcome: 'pending_review' }
  | { outcome: 'crawl_failed'; error: CrawlError };

/**
 * The crawl step. Claims the site with one conditional statement (queued → crawling, attempt counted), so a
 * duplicate delivery finds nothing to claim and is a no-op. A success stores the metadata and moves to
 * pending_review, then enqueues the review. A failure with attempts left puts the site back to queued and
 * THROWS (the job answers non-2xx, QStash or the local queue retries); the last allowed attempt ends in
 * crawl_failed with the error kept for operators (status_note feeds site_history).
 */
export async function crawlSite(deps: Deps, siteId: string): Promise<CrawlOutcome> {
  const [claimed] = await queryRows<{ url: string; crawl_attempts: number }>(
    deps.db,
    sql`UPDATE sites SET status = 'crawling', crawl_attempts = crawl_attempts + 1,
          status_note = 'crawl attempt ' || (crawl_attempts + 1)
        WHERE id = ${siteId}::uuid AND status = 'queued'
        RETURNING url, crawl_attempts`,
  );
  if (!claimed) return { outcome: 'skipped', reason: 'not queued (already handled or unknown)' };
  const attempt = Number(claimed.crawl_attempts);

  const result = await crawlPage(claimed.url, {
    fetch: deps.crawl.fetch,
    resolver: deps.crawl.resolver,
    allowPrivate: deps.config.crawl.allowPrivate,
  }).catch((error: unknown): { ok: false; error: CrawlError } => ({
    ok: false,
    error: { code: 'network_error', message: `crawler error: ${String(error)}` },
  }));

  if (result.ok) {
    const metadata = toStoredMetadata(result.metadata, result.finalUrl);
    const [moved] = await queryRows<{ id: string }>(
      deps.db,
      sql`UPDATE sites SET status = 'pending_review', metadata = ${JSON.stringify(metadata)}::jsonb,
            crawled_at = now(), crawl_error = NULL, status_note = 'crawled: ' || ${result.finalUrl}::text
          WHERE id = ${siteId}::uuid AND status = 'crawling' AND crawl_attempts = ${attempt}
          RETURNING id`,
    );
    if (!moved) return { outcome: 'skipped', reason: 'site changed while crawling' };
    await deps.queue.enqueue('review', { site_id: siteId }, { deduplicationId: `review-${siteId}-${attempt}` });
    return { outcome: 'pending_review' };
  }

  const error = `${result.error.code}: ${result.error.message}`;
  const final = attempt >= deps.config.crawl.maxAttempts;
  await queryRows(
    deps.db,
    sql`UPDATE sites SET status = ${final ? 'crawl_failed' : 'queued'}::text, crawl_error = ${error}::text,
          status_note = ${`attempt ${attempt} of ${deps.config.crawl.maxAttempts} failed: ${error}`}::text
        WHERE id = ${siteId}::uuid AND status = 'crawling' AND crawl_attempts = ${attempt}`,
  );
  deps.log.warn('crawl failed', { site_id: siteId, attempt, final, err: error });
  if (final) return { outcome: 'crawl_failed', error: result.error };
  throw new ServiceError('service_unavailable', `Crawl attempt ${attempt} failed (${result.error.code}); it will be retried.`);
}
