import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { ServiceError } from '../errors';
import type { SiteRecord } from '../submissions/record-schemas';
import { publishSite } from './publish';
import { rejectSite } from './reject';
import { requireKnownCategories, withCategoriesInPlace } from '../categories/categories';
import { setSiteCategoriesForDecision } from '../categories/site-categories';
import { decisionApplies, type Decision } from './decision-conditions';

export interface ReviewDecision {
  decision: Decision;
  reason?: string;
  /** Replaces the tool's categories (at most 3 known slugs; [] clears them); omitted keeps them. */
  categories?: string[];
}

/**
 * An editor's decision (REST, the /admin page and any other surface): approve publishes from pending_review
 * or republishes a taken-down tool; reject works from pending_review or live (takedown). Any other state is
 * a 409 conflict that says what is possible.
 */
export async function decideReview(deps: Deps, siteId: string, input: ReviewDecision): Promise<SiteRecord> {
  const reason = input.reason?.trim() || null;
  if (input.categories) {
    // Checked and set before the decision, only while the decision applies (src/categories/site-categories.ts).
    await requireKnownCategories(deps, input.categories);
    await withCategoriesInPlace(() =>
      setSiteCategoriesForDecision(deps, siteId, decisionApplies[input.decision], input.categories!),
    );
  }
  const record =
    input.decision === 'approve'
      ? await publishSite(deps, siteId, { note: reason ? `approved by an editor: ${reason}` : 'approved by an editor' })
      : await rejectSite(deps, siteId, reason);
  if (record) return record;
  const [site] = await queryRows<{ status: string; published_at: string | null }>(
    deps.db,
    sql`SELECT status, published_at::text FROM sites WHERE id = ${siteId}::uuid`,
  );
  if (!site) throw new ServiceError('not_found', 'No site with this id.');
  throw new ServiceError('conflict', conflictMessage(input.decision, site.status, site.published_at !== null));
}

function conflictMessage(decision: Decision, status: string, wasPublished: boolean): string {
  if (decision === 'approve') {
    if (status === 'live') return 'The site is already live.';
    if (status === 'rejected' && !wasPublished)
      return 'The site was rejected before it was ever published; only a taken-down tool can be republished.';
    return `A site in status ${status} cannot be approved: approve works from pending_review (or republishes a taken-down tool).`;
  }
  if (status === 'rejected') return 'The site is already rejected.';
  return `A site in status ${status} cannot be rejected: reject works from pending_review or live.`;
}
