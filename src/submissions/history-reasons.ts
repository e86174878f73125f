import { crawlFailureKinds } from '../catalog/crawl-failure-kinds';
import { publicCrawlError } from '../crawler/crawl-error-messages';

// Which site_history notes a submitter may read, and as what (docs/submission-progress.md "Reasons"). Notes
// are written for operators (src/pipeline/*.ts); only two kinds are meant for submitters, and each is matched
// by the exact shape its writer gives it, so any other note (a crawled URL, an approval remark) stays unseen.

const EDITOR_REJECTION = 'rejected by an editor: ';
const FAILED_ATTEMPT = /^attempt \d+ of \d+ failed: (.+)$/;
const SWEPT_ATTEMPT = /^sweep: crawl attempt \d+ did not finish$/;

/** Every message src/crawler/crawl-error-messages.ts can produce (the HTTP one with any status it shows). */
const crawlMessages = new Set(
  crawlFailureKinds.filter((k) => k !== 'http_error').map((k) => publicCrawlError(k).message),
);
crawlMessages.add(publicCrawlError('http_error', null).message);
const HTTP_MESSAGE = /^the site answered HTTP [1-5]\d\d$/;

export const isPublicCrawlMessage = (text: string) => crawlMessages.has(text) || HTTP_MESSAGE.test(text);

/**
 * The reason shown with a history step, or undefined. Rejections (pending_review or live → rejected) show the
 * editor's reason, which the rejection mail sends too; failed crawl attempts (→ queued for a retry, or
 * crawl_failed) show the public message of their kind, never the operator's detail (sites.crawl_error).
 */
export function submitterReason(step: {
  status: string;
  from: string | null;
  note: string | null;
}): string | undefined {
  const note = step.note;
  if (!note) return undefined;
  if (step.status === 'rejected') {
    return note.startsWith(EDITOR_REJECTION) && note.length > EDITOR_REJECTION.length
      ? note.slice(EDITOR_REJECTION.length)
      : undefined;
  }
  const fromCrawl = step.status === 'crawl_failed' || (step.status === 'queued' && step.from === 'crawling');
  if (!fromCrawl) return undefined;
  const failed = FAILED_ATTEMPT.exec(note);
  if (failed && isPublicCrawlMessage(failed[1]!)) return failed[1];
  if (SWEPT_ATTEMPT.test(note)) return publicCrawlError('did_not_finish').message;
  return undefined;
}
