import type { HistoryStep, QueuePosition } from './record-schemas';
import type { LastEdit, PendingEdit } from './edit-record';
import { formatTime } from '../display-time';

// The history, queue position and edits in words, for people: `tooldir status` and /account show the same sentences
// (docs/submission-progress.md).

const STAGE_WORDS = { crawl: 'crawling', review: 'review' } as const;

/** A status in a few words, for tables and lists (`tooldir list`): what people read instead of the API's codes. */
export const STATUS_WORDS: Record<HistoryStep['status'], string> = {
  pending_payment: 'waiting for payment',
  queued: 'queued',
  crawling: 'being crawled',
  crawl_failed: 'crawl failed',
  pending_review: 'waiting for review',
  live: 'live',
  rejected: 'rejected',
};

/** STATUS_WORDS of a status; an unknown one (a newer server) as it is. */
export const statusInWords = (status: string): string => STATUS_WORDS[status as HistoryStep['status']] ?? status;

/** 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 22nd, 101st. */
export function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th'}`;
}

/** "3rd in line for crawling, expected around 2026-11-21 14:05 UTC" (no estimate without pace data). */
export function describeQueue(queue: QueuePosition): string {
  const place = `${ordinal(queue.position)} in line for ${STAGE_WORDS[queue.stage]}`;
  return queue.estimated_at ? `${place}, expected around ${formatTime(queue.estimated_at)}` : place;
}

/** "2026-11-21 21:05 UTC  crawl_failed: the site answered HTTP 503". */
export function describeStep(step: HistoryStep): string {
  return `${formatTime(step.at)}  ${step.status}${step.reason ? `: ${step.reason}` : ''}`;
}

/** 'waiting for review since 2026-11-21 12:05 UTC: name "Acme Writer", a new description'. */
export function describePendingEdit(edit: PendingEdit): string {
  const changes = [edit.name !== undefined ? `name "${edit.name}"` : '', edit.description !== undefined ? 'a new description' : ''].filter(Boolean);
  return `waiting for review since ${formatTime(edit.submitted_at)}: ${changes.join(', ')}`;
}

/** "approved 2026-11-21 13:05 UTC" or "rejected 2026-11-21 13:05 UTC: the name is misleading". */
export function describeLastEdit(edit: LastEdit): string {
  return `${edit.status} ${formatTime(edit.decided_at)}${edit.reason ? `: ${edit.reason}` : ''}`;
}
