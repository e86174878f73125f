import { sql, type SQL } from 'drizzle-orm';

// Where an editor's decision applies, for a site aliased `s`: the one definition publish (approve), reject and
// the category change made with a decision (src/categories/site-categories.ts, given it by decide-review.ts) share.

export type Decision = 'approve' | 'reject';

export const decisionApplies: Record<Decision, SQL> = {
  /** Approve starts from pending_review, or from a takedown (rejected after having been live) to republish. */
  approve: sql`(s.status = 'pending_review' OR (s.status = 'rejected' AND s.published_at IS NOT NULL))`,
  /** Reject works from pending_review, or from live (a takedown). */
  reject: sql`s.status IN ('pending_review', 'live')`,
};
