import type { HistoryStep, PaymentReason, PendingRecord, QueuePosition, SiteRecord } from './record-schemas';
import type { LastEdit, PendingEdit } from './edit-record';
import { formatTime } from '../display-time';

// A submission's status, history, queue position and edits in words, for people: `tooldir status`, /account and
// /account/submissions/{site_id} show the same sentences (docs/submission-progress.md).

/** Every status in words: what people read instead of the API's codes, on every page and in the CLI. */
const STATUS_WORDS: Record<SiteRecord['status'] | PendingRecord['status'], string> = {
  pending_payment: 'waiting for payment',
  queued: 'queued for crawling',
  crawling: 'being crawled',
  crawl_failed: 'crawl failed',
  pending_review: 'crawled, waiting for editorial review',
  live: 'live',
  rejected: 'rejected by review',
};

/** A submission status in words ("queued for crawling"); unknown values are shown as they are. */
export function describeStatus(status: string): string {
  return Object.hasOwn(STATUS_WORDS, status) ? STATUS_WORDS[status as keyof typeof STATUS_WORDS] : status;
}

/** Why a submission needs payment, in words (the reason of a pending-payment record). */
export function describeReason(reason: PaymentReason | string, plan?: string): string {
  switch (reason) {
    case 'no_membership':
      return 'Your account has no active membership, so this submission must be paid.';
    case 'quota_exceeded':
      return "You have used today's submission quota of your membership, so this submission must be paid.";
    case 'plan_not_covered':
      return `Your membership does not cover the ${plan ?? 'chosen'} plan, so this submission must be paid.`;
    case 'payment_pending':
      return 'This URL already waits for payment; here is a fresh checkout link.';
    default:
      return `Payment required (${reason}).`;
  }
}

const STAGE_WORDS = { crawl: 'crawling', review: 'review' } as const;

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

/** "2026-11-21 21:05 UTC  crawl failed: the site answered HTTP 503". */
export function describeStep(step: HistoryStep): string {
  return `${formatTime(step.at)}  ${describeStatus(step.status)}${step.reason ? `: ${step.reason}` : ''}`;
}

/** 'waiting for review since 2026-11-21 12:05 UTC: name "Acme Writer", a new description'. */
export function describePendingEdit(edit: PendingEdit): string {
  const changes = [
    edit.name !== undefined ? `name "${edit.name}"` : '',
    edit.description !== undefined ? 'a new description' : '',
  ].filter(Boolean);
  return `waiting for review since ${formatTime(edit.submitted_at)}: ${changes.join(', ')}`;
}

/** "approved 2026-11-21 13:05 UTC" or "rejected 2026-11-21 13:05 UTC: the name is misleading". */
export function describeLastEdit(edit: LastEdit): string {
  return `${edit.status} ${formatTime(edit.decided_at)}${edit.reason ? `: ${edit.reason}` : ''}`;
}
