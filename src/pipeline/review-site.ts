import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { decideReviewChecks, type ReviewChecks } from './review-checks';
import { publishSite } from './publish';
import type { StoredMetadata } from './stored-metadata';

export type ReviewOutcome =
  | { outcome: 'skipped'; reason: string }
  | { outcome: 'waiting'; checks: ReviewChecks }
  | { outcome: 'published'; checks: ReviewChecks };

/**
 * The review step: runs the automatic checks on a pending_review site and records them for the editor.
 * With AUTO_APPROVE a passing site is published at once; otherwise (or when a check fails) it waits for an
 * editor. A redelivery re-runs the checks and, if already published, finds nothing to do.
 */
export async function reviewSite(deps: Deps, siteId: string): Promise<ReviewOutcome> {
  const [site] = await queryRows<{
    url: string;
    metadata: StoredMetadata | string | null;
    live_duplicate: string | null;
  }>(
    deps.db,
    sql`SELECT s.url, s.metadata,
          (SELECT o.id FROM sites o WHERE o.status = 'live' AND o.withdrawn_at IS NULL AND o.id <> s.id
             AND (o.canonical_url = s.metadata->>'finalCanonical' OR o.metadata->>'finalCanonical' = s.metadata->>'finalCanonical')
           LIMIT 1) AS live_duplicate
        FROM sites s WHERE s.id = ${siteId}::uuid AND s.status = 'pending_review'`,
  );
  if (!site) return { outcome: 'skipped', reason: 'not pending review' };
  const metadata = (
    typeof site.metadata === 'string' ? JSON.parse(site.metadata) : site.metadata
  ) as StoredMetadata | null;
  const hosts = [site.url, metadata?.finalUrl].flatMap((u) => (u ? [hostOf(u)] : [])).filter((h): h is string => !!h);
  const checks = decideReviewChecks({
    hasHtmlMetadata: Boolean(metadata?.finalUrl),
    finalUrl: metadata?.finalUrl ?? null,
    liveDuplicateId: site.live_duplicate,
    hosts,
    blockedDomains: deps.config.blockedDomains,
  });
  const [recorded] = await queryRows<{ id: string }>(
    deps.db,
    sql`UPDATE sites SET review_checks = ${JSON.stringify({ ...checks, checked_at: deps.now().toISOString() })}::jsonb
        WHERE id = ${siteId}::uuid AND status = 'pending_review' RETURNING id`,
  );
  if (!recorded) return { outcome: 'skipped', reason: 'left pending review meanwhile' };
  if (!deps.config.autoApprove || !checks.passed) return { outcome: 'waiting', checks };
  const published = await publishSite(deps, siteId, { note: 'auto-approved: all review checks passed' });
  return published ? { outcome: 'published', checks } : { outcome: 'skipped', reason: 'published meanwhile' };
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
}
