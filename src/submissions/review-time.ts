import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { waitWords } from './wait-estimate';

/** How long review usually takes, as the pages that sell state it (docs/submission-progress.md "Usual review time"). */
export interface ReviewTime {
  /** The median time from entering review to the decision, in seconds; null with fewer than MIN_DECISIONS. */
  medianSeconds: number | null;
  /** Decisions (published or rejected from review) in the window. */
  decisions: number;
}

export const REVIEW_TIME_WINDOW_DAYS = 30;
/** Below this many decisions a median says more about chance than about the editors. */
export const MIN_DECISIONS = 3;

/**
 * The median time a submission spent in review over the last 30 days of decisions (pending_review → live or
 * rejected, by an editor or the automatic approval), from site_history: one statement, the window read by the
 * history's time index and each decision's entry into review by the per-site index. A median, not a mean: one
 * submission forgotten over a holiday must not make every page promise a week.
 */
export async function usualReviewTime({ deps }: { deps: Deps }): Promise<ReviewTime> {
  const [row] = await queryRows<{ median: number | string | null; decisions: number | string }>(
    deps.db,
    sql`WITH decided AS (
          SELECT d.at - (SELECT max(e.at) FROM site_history e
                         WHERE e.site_id = d.site_id AND e.to_status = 'pending_review' AND e.id < d.id) AS took
          FROM site_history d
          WHERE d.at > now() - make_interval(days => ${REVIEW_TIME_WINDOW_DAYS})
            AND d.from_status = 'pending_review' AND d.to_status IN ('live', 'rejected')
        )
        SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM took)) AS median, count(*) AS decisions
        FROM decided WHERE took IS NOT NULL`,
  );
  const decisions = Number(row?.decisions ?? 0);
  const median = row?.median == null ? null : Number(row.median);
  return { medianSeconds: decisions >= MIN_DECISIONS ? median : null, decisions };
}

/** "Review usually takes about 5 hours (…)", or a plain statement that there are too few decisions to say. */
export function reviewTimeText(time: ReviewTime): string {
  const words = waitWords(time.medianSeconds);
  if (!words)
    return `Review time: too few decisions in the last ${REVIEW_TIME_WINDOW_DAYS} days to say how long it usually takes.`;
  return `Review usually takes ${words} (the median of the last ${REVIEW_TIME_WINDOW_DAYS} days, ${time.decisions} decisions).`;
}
