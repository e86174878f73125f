import { sql, type SQL } from 'drizzle-orm';

// Where an editor's decision applies, for a site aliased `s`: the one definition publish (approve), reject and
// the category change made with a decision (src/categories/site-categories.ts, given it by decide-review.ts) share.

export type Decision = 'approve' | 'reject';

export const decisionApplies: Record<Decision, SQL> = {
  /**
   * Approve starts from pending_review, or from an editor's takedown (rejected after having been live) to republish;
   * never from a withdrawal: its owner took it down, and listing it again is a new submission.
   */
  approve: sql`(s.status = 'pending_review' OR (s.status = 'rejected' AND s.published_at IS NOT NULL AND s.withdrawn_at IS NULL))`,
  /** Reject works from pending_review, or from live (a takedown). */
  reject: sql`s.status IN ('pending_review', 'live')`,
};
