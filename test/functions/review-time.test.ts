// The usual review time the pages that sell state (src/submissions/review-time.ts): the median time from entering
// review to the decision over the last 30 days, from site_history, and nothing below 3 decisions.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client';
import { reviewTimeText, usualReviewTime } from '../../src/submissions/review-time';
import { createTestApp, type TestApp } from '../helpers/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** One site's way through review: entered `daysAgo` days ago, decided `hours` later. */
async function reviewed(daysAgo: number, hours: number, decision: 'live' | 'rejected' = 'live') {
  const id = crypto.randomUUID();
  await queryRows(
    t.deps.db,
    sql`INSERT INTO site_history (site_id, from_status, to_status, at) VALUES
          (${id}::uuid, 'crawling', 'pending_review', now() - make_interval(days => ${daysAgo})),
          (${id}::uuid, 'pending_review', ${decision}, now() - make_interval(days => ${daysAgo}) + make_interval(hours => ${hours}))`,
  );
}

it('says nothing below 3 decisions, then the median of the last 30 days (older decisions left out)', async () => {
  expect(await usualReviewTime({ deps: t.deps })).toEqual({ medianSeconds: null, decisions: 0 });
  await reviewed(40, 100); // outside the window
  await reviewed(3, 1);
  await reviewed(5, 2, 'rejected');
  let time = await usualReviewTime({ deps: t.deps });
  expect(time).toEqual({ medianSeconds: null, decisions: 2 });
  expect(reviewTimeText(time)).toBe(
    'Review time: too few decisions in the last 30 days to say how long it usually takes.',
  );
  await reviewed(10, 30);
  time = await usualReviewTime({ deps: t.deps });
  expect(time).toEqual({ medianSeconds: 2 * 3600, decisions: 3 });
  expect(reviewTimeText(time)).toBe(
    'Review usually takes about 2 hours (the median of the last 30 days, 3 decisions).',
  );
  expect(await (await t.request('/pricing')).text()).toContain('Review usually takes about 2 hours');
});
