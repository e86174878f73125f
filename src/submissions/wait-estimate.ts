import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { STAGES, stagePace } from './progress';

/**
 * How long a submission made now would wait before it is published (shown on /submit before anyone pays),
 * from the live queues and their pace as the detail read computes them (docs/submission-progress.md "queue";
 * the stages and the pace are progress.ts's, not a copy).
 */
export interface WaitEstimate {
  /** Submissions waiting to be crawled (queued or crawling) and waiting for review, across the directory. */
  waiting: { crawl: number; review: number };
  /** Seconds until published at the current pace; null when a stage has no pace (fewer than two exits in 24 hours). */
  seconds: number | null;
}

/**
 * The two stages are a pipeline: a new submission is crawled after the `crawl` ones ahead of it (C + 1 crawls),
 * then reviewed after everything already in review and everything crawled ahead of it (R + C + 1 reviews), and
 * its own review cannot start before its crawl ends. So: max((C + 1) × crawl pace + review pace, (R + C + 1) ×
 * review pace). The pace is the mean time between a stage's exits over the last 24 hours, so when a queue is
 * short it measures how often submissions arrive rather than how fast they are handled: the estimate then
 * leans long, never short. One statement.
 */
export async function estimateWait({ deps }: { deps: Deps }): Promise<WaitEstimate> {
  const [row] = await queryRows<{
    crawl: number | string;
    review: number | string;
    crawl_pace: number | string | null;
    review_pace: number | string | null;
  }>(
    deps.db,
    sql`SELECT (SELECT count(*) FROM sites WHERE status = ANY(${STAGES.crawl})) AS crawl,
          (SELECT count(*) FROM sites WHERE status = ANY(${STAGES.review})) AS review,
          extract(epoch FROM ${stagePace(STAGES.crawl)}) AS crawl_pace,
          extract(epoch FROM ${stagePace(STAGES.review)}) AS review_pace`,
  );
  const crawl = Number(row?.crawl ?? 0);
  const review = Number(row?.review ?? 0);
  const crawlPace = row?.crawl_pace == null ? null : Number(row.crawl_pace);
  const reviewPace = row?.review_pace == null ? null : Number(row.review_pace);
  const seconds =
    crawlPace === null || reviewPace === null
      ? null
      : Math.max((crawl + 1) * crawlPace + reviewPace, (review + crawl + 1) * reviewPace);
  return { waiting: { crawl, review }, seconds };
}

/**
 * The estimate in words: "about 3 days", "about 5 hours", "about 20 minutes", "a few minutes"; undefined when
 * there is no estimate (the page then says so plainly).
 */
export function waitWords(seconds: number | null): string | undefined {
  if (seconds === null || !Number.isFinite(seconds)) return undefined;
  const minutes = Math.round(seconds / 60);
  if (minutes < 5) return 'a few minutes';
  if (minutes < 90) return `about ${minutes} minutes`;
  const hours = Math.round(seconds / 3600);
  if (hours < 48) return `about ${hours} hours`;
  return `about ${Math.round(seconds / 86_400)} days`;
}
