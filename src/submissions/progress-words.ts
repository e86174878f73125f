import type { HistoryStep, PaymentReason, PendingRecord, QueuePosition, SiteRecord } from './record-schemas';
import type { LastEdit, PendingEdit } from './edit-record';

// A submission's status, history, queue position and edits in words, for people: `tooldir status`, /account and
// /account/submissions/{site_id} show the same sentences (docs/submission-progress.md).

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

/** `YYYY-MM-DD HH:MM UTC`, or only `HH:MM UTC` when it falls on the same UTC day as `now`. */
export function utcClock(iso: string, now: Date): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const text = at.toISOString();
  const time = `${text.slice(11, 16)} UTC`;
  return text.slice(0, 10) === now.toISOString().slice(0, 10) ? time : `${text.slice(0, 10)} ${time}`;
}

/** "3rd in line for crawling, expected around 14:05 UTC" (no estimate without pace data). */
export function describeQueue(queue: QueuePosition, now: Date): string {
  const place = `${ordinal(queue.position)} in line for ${STAGE_WORDS[queue.stage]}`;
  return queue.estimated_at ? `${place}, expected around ${utcClock(queue.estimated_at, now)}` : place;
}

/** "2026-11-21 21:05 UTC  crawl_failed: the site answered HTTP 503". */
export function describeStep(step: HistoryStep, now: Date): string {
  return `${utcClock(step.at, now)}  ${step.status}${step.reason ? `: ${step.reason}` : ''}`;
}

/** 'waiting for review since 12:05 UTC: name "Acme Writer", a new description'. */
export function describePendingEdit(edit: PendingEdit, now: Date): string {
  const changes = [edit.name !== undefined ? `name "${edit.name}"` : '', edit.description !== undefined ? 'a new description' : ''].filter(Boolean);
  return `waiting for review since ${utcClock(edit.submitted_at, now)}: ${changes.join(', ')}`;
}

/** "approved 13:05 UTC" or "rejected 13:05 UTC: the name is misleading". */
export function describeLastEdit(edit: LastEdit, now: Date): string {
  return `${edit.status} ${utcClock(edit.decided_at, now)}${edit.reason ? `: ${edit.reason}` : ''}`;
}
