import { sql, type SQL } from 'drizzle-orm';
import { isoTimestamp } from '../db/sql-format';
import type { HistoryStep, QueuePosition, SiteRecord, SiteDetailRecord } from './record-schemas';
import { submitterReason } from './history-reasons';

// A submission's history and queue position (docs/submission-progress.md), read in the same statement as its
// record: these are columns to add to a `FROM sites s` select, so the detail read stays one statement.

/** The statuses of each waiting stage. Inline literals, not parameters: the planner sees constants. */
export const STAGES = {
  crawl: sql.raw(`ARRAY['queued','crawling']::text[]`),
  review: sql.raw(`ARRAY['pending_review']::text[]`),
};

/**
 * When site `alias` last entered the stage: its newest history row into the stage from outside it (a failed
 * crawl attempt going back to queued stays in the crawl stage). A row older than site_history falls back to
 * status_changed_at.
 */
const enteredStage = (alias: string, stage: SQL) => {
  const a = sql.raw(alias);
  return sql`COALESCE((SELECT h.at FROM site_history h WHERE h.site_id = ${a}.id AND h.to_status = ANY(${stage})
      AND (h.from_status IS NULL OR NOT (h.from_status = ANY(${stage}))) ORDER BY h.id DESC LIMIT 1), ${a}.status_changed_at)`;
};

/**
 * The stage's pace: the mean time between its exits (a row leaving the stage's statuses) over the last 24
 * hours, across all sites. Two exits at least, else no pace and no estimate (also read by wait-estimate.ts).
 */
export const stagePace = (stage: SQL) =>
  sql`(SELECT CASE WHEN count(*) >= 2 THEN (max(h.at) - min(h.at)) / (count(*) - 1)::float8 END
       FROM site_history h WHERE h.at > now() - interval '24 hours'
         AND h.from_status = ANY(${stage}) AND NOT (h.to_status = ANY(${stage})))`;

/** Position 1 = next: the sites of the same stage that entered it earlier (ties by id), plus one. */
const queueIn = (name: keyof typeof STAGES) => {
  const stage = STAGES[name];
  return sql`(SELECT jsonb_strip_nulls(jsonb_build_object('stage', ${name}::text, 'position', q.position,
        'estimated_at', CASE WHEN q.pace IS NOT NULL THEN ${isoTimestamp(sql`(now() + q.pace * q.position)`)} END))
      FROM (SELECT 1 + (SELECT count(*) FROM sites o WHERE o.status = ANY(${stage}) AND o.id <> s.id
                          AND (${enteredStage('o', stage)}, o.id) < (${enteredStage('s', stage)}, s.id)) AS position,
                   ${stagePace(stage)} AS pace) q)`;
};

/** Columns for a select over `sites s`: the raw history rows, what a paid one's first step needs, and the queue. */
export const progressColumns = sql`s.via, ${isoTimestamp(sql`s.submitted_at`)} AS submitted_iso,
  (SELECT COALESCE(jsonb_agg(x.step ORDER BY x.at, x.ord), '[]'::jsonb) FROM (
      SELECT jsonb_build_object('status', h.to_status, 'from', h.from_status, 'note', h.note, 'at', ${isoTimestamp(sql`h.at`)}) AS step, h.at, h.id AS ord
      FROM site_history h WHERE h.site_id = s.id
      UNION ALL
      -- A claim moves the listing without changing its status (docs/ownership.md "Claims").
      SELECT jsonb_build_object('status', c.site_status, 'event', 'claimed', 'at', ${isoTimestamp(sql`c.at`)}), c.at, 0
      FROM site_claims c WHERE c.site_id = s.id AND c.outcome = 'claimed') x) AS history,
  CASE WHEN s.status IN ('queued', 'crawling') THEN ${queueIn('crawl')}
       WHEN s.status = 'pending_review' THEN ${queueIn('review')} END AS queue`;

export interface HistoryRow {
  status: string;
  event?: 'claimed';
  from: string | null;
  note: string | null;
  at: string;
}

export interface ProgressRow {
  via: 'membership' | 'payment';
  submitted_iso: string;
  history: HistoryRow[] | string;
  queue: (Omit<QueuePosition, 'position'> & { position: number | string }) | string | null;
}

const parsed = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

/** The history as submitters read it: a paid submission starts at pending_payment (its pending record's creation). */
export function toHistory(row: ProgressRow): HistoryStep[] {
  const steps: HistoryStep[] = row.via === 'payment' ? [{ status: 'pending_payment', at: row.submitted_iso }] : [];
  for (const h of parsed(row.history) ?? []) {
    const step: HistoryStep = { status: h.status as HistoryStep['status'], at: h.at };
    if (h.event === 'claimed') step.event = 'claimed';
    const reason = submitterReason(h);
    if (reason !== undefined) step.reason = reason;
    steps.push(step);
  }
  return steps;
}

export function toQueue(row: ProgressRow): QueuePosition | undefined {
  const queue = row.queue === null ? null : parsed(row.queue);
  if (!queue) return undefined;
  const out: QueuePosition = { stage: queue.stage, position: Number(queue.position) };
  if (queue.estimated_at) out.estimated_at = queue.estimated_at;
  return out;
}

/** A site record with its progress (the detail read's shape). */
export function withProgress(record: SiteRecord, row: ProgressRow): SiteDetailRecord {
  const detail: SiteDetailRecord = { ...record, history: toHistory(row) };
  const queue = toQueue(row);
  if (queue) detail.queue = queue;
  return detail;
}
