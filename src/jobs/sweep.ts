import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { purgeExpiredPending } from '../submissions/purge';
import { purgeExpiredCredentials } from '../accounts/purge-expired-credentials';
import { purgeExpiredIdempotencyKeys } from '../idempotency/settle';
import { IDEMPOTENCY } from '../idempotency/key';
import { purgeExpiredOAuth } from '../oauth/purge-expired';
import { recheckDomainProofs } from '../domains/recheck';
import { notifyCrawlFailedSite } from '../pipeline/notify-crawl-failed';
import { pruneListingChanges } from '../directory/changes-prune';

export interface SweepReport {
  /** Sites queued too long (handed to the crawl step again) and crawled sites never reviewed (to the review step). */
  redispatched: number;
  /** Crawls stuck in crawling (a crash or a lost worker) put back to queued (or crawl_failed when out of attempts). */
  recovered: number;
  /** Pending-payment records deleted 30 days after their link expired. */
  purged: number;
  /** Expired sign-in codes and browser sessions deleted. */
  expiredCredentials: number;
  /** Idempotency-Key records past their 24 hours (docs/idempotency.md). */
  expiredIdempotencyKeys: number;
  /** Domain proofs re-checked (DNS and HTTP, monthly) and lapsed (src/domains/recheck.ts). */
  rechecked: number;
  lapsed: number;
  /** Change feed entries past their retention (docs/change-feed.md "Retention"). */
  prunedChanges: number;
}

export interface SweepOptions {
  /** Default 2 minutes. The local entry passes its own age at start-up: its in-process queue held nothing across the restart. */
  queuedForMs?: number;
  /** Default 10 minutes (a crawl is bounded by 10 s, so this is a dead one). */
  crawlingForMs?: number;
}

/**
 * The scheduled sweep (QStash every 5 minutes; an interval and start-up run locally). Nothing stays stuck
 * after a crash: stalled crawls go back to queued in one conditional statement, every site queued longer
 * than the threshold is dispatched again (the crawl step's claim makes duplicates harmless), and a crawled
 * site whose review never ran gets its review step.
 */
export async function runSweep(deps: Deps, options: SweepOptions = {}): Promise<SweepReport> {
  const queuedFor = `${options.queuedForMs ?? 120_000} milliseconds`;
  const crawlingFor = `${options.crawlingForMs ?? 600_000} milliseconds`;
  const max = deps.config.crawl.maxAttempts;

  // Out of attempts: the last one never reported back, so an earlier attempt's failure (kind and detail) is
  // kept when there was one, else the kind is did_not_finish.
  const recovered = await queryRows<{ id: string; status: string; crawl_attempts: number }>(
    deps.db,
    sql`UPDATE sites SET
          status = CASE WHEN crawl_attempts - crawl_attempt_offset >= ${max} THEN 'crawl_failed' ELSE 'queued' END,
          crawl_error = CASE WHEN crawl_attempts - crawl_attempt_offset >= ${max} THEN COALESCE(crawl_error, 'crawl did not finish') ELSE crawl_error END,
          crawl_error_kind = CASE WHEN crawl_attempts - crawl_attempt_offset >= ${max} THEN COALESCE(crawl_error_kind, 'did_not_finish') ELSE crawl_error_kind END,
          status_note = 'sweep: crawl attempt ' || (crawl_attempts - crawl_attempt_offset) || ' did not finish'
        WHERE status = 'crawling' AND status_changed_at <= now() - ${crawlingFor}::interval
        RETURNING id, status, crawl_attempts`,
  );
  const stale = await queryRows<{ id: string; crawl_attempts: number }>(
    deps.db,
    sql`SELECT id, crawl_attempts FROM sites
        WHERE status = 'queued' AND status_changed_at <= now() - ${queuedFor}::interval
        ORDER BY status_changed_at LIMIT 500`,
  );
  // Just-recovered sites were stamped now, so the threshold hides them: they are dispatched too.
  const toDispatch = new Map<string, number>();
  for (const site of [...stale, ...recovered.filter((r) => r.status === 'queued')])
    toDispatch.set(site.id, Number(site.crawl_attempts));
  for (const [id, attempts] of toDispatch) {
    // Same id as the dispatch of that attempt: a publish that did arrive is not doubled by the provider.
    await deps.queue.enqueue('crawl', { site_id: id }, { deduplicationId: `crawl-${id}-${attempts + 1}` });
  }

  // A crawl whose review publish was lost (the site moved, the enqueue failed) still gets its checks.
  const unreviewed = await queryRows<{ id: string; crawl_attempts: number }>(
    deps.db,
    sql`SELECT id, crawl_attempts FROM sites
        WHERE status = 'pending_review' AND review_checks IS NULL AND status_changed_at <= now() - ${queuedFor}::interval
        ORDER BY status_changed_at LIMIT 500`,
  );
  for (const site of unreviewed) {
    // Its own id: the crawl's `review-{site}-{attempt}` publish may still sit in the provider's dedup window.
    await deps.queue.enqueue(
      'review',
      { site_id: site.id },
      { deduplicationId: `review-${site.id}-${Number(site.crawl_attempts)}-sweep` },
    );
  }

  // A rejection's refund whose job message was lost (docs/payments.md "Refund on rejection"): the job is idempotent.
  const refunds = await queryRows<{ id: string }>(
    deps.db,
    sql`SELECT id FROM sites WHERE refund_state = 'due' AND status_changed_at <= now() - ${queuedFor}::interval
        ORDER BY status_changed_at LIMIT 500`,
  );
  for (const site of refunds)
    await deps.queue.enqueue('refund', { site_id: site.id }, { deduplicationId: `refund-${site.id}-sweep` });
  // Crawls the sweep just ended in crawl_failed are told, like the crawl step's own last failure.
  for (const site of recovered) if (site.status === 'crawl_failed') await notifyCrawlFailedSite(deps, site.id);

  const { purged } = await purgeExpiredPending(deps);
  const expiredCredentials = (await purgeExpiredCredentials(deps)).expiredCredentials + (await purgeExpiredOAuth(deps));
  const expiredIdempotencyKeys = await purgeExpiredIdempotencyKeys(deps.db, IDEMPOTENCY.retentionHours);
  const { rechecked, lapsed } = await recheckDomainProofs(deps);
  const prunedChanges = await pruneListingChanges(deps);

  const report: SweepReport = {
    redispatched: toDispatch.size + unreviewed.length + refunds.length,
    recovered: recovered.length,
    purged,
    expiredCredentials,
    expiredIdempotencyKeys,
    rechecked,
    lapsed,
    prunedChanges,
  };
  if (Object.values(report).some((n) => n > 0)) deps.log.info('sweep', { ...report });
  return report;
}
