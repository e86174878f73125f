import type { Deps } from '../deps';
import { sendSubmissionMail } from '../accounts/account-mail';
import { publicCrawlError } from '../crawler/crawl-error-messages';
import type { CrawlFailureKind } from '../catalog/crawl-failure-kinds';
import { moneyText, REFUND_ARRIVAL_TEXT } from '../submissions/money-words';

// The mails of the pipeline (src/catalog/mail-kinds.ts says which an account may turn off). Each goes through
// sendSubmissionMail, which adds the submission page's link and never throws.

interface Notice {
  accountId: string;
  siteId: string;
  to: string | null;
  name: string;
  url: string;
}

/** "Your tool is live" with the public page's address. */
export async function notifyPublished(deps: Deps, notice: Notice & { liveUrl: string }): Promise<void> {
  await sendSubmissionMail(deps, {
    ...notice,
    kind: 'published',
    subject: `${notice.name} is live on tooldir`,
    text: `Good news: your submission "${notice.name}" (${notice.url}) has been published.\n\nIts page: ${notice.liveUrl}\n`,
  });
}

/** What became of the money of a rejected submission, for its mail. */
export type RejectionMoney =
  | { kind: 'none' }
  | { kind: 'refunded'; refundId: string; amount: number; currency: string }
  | { kind: 'not_refunded' };

/**
 * Rejection or takedown, with the editor's reason and, for a paid submission rejected before it went live, the
 * refund (its id) or the rule that there is none. A refund is money moving, so that mail is transactional.
 */
export async function notifyRejected(
  deps: Deps,
  notice: Notice & { reason: string | null; wasLive: boolean; money: RejectionMoney },
): Promise<void> {
  const what = notice.wasLive ? 'has been taken down from the directory' : 'was not accepted for the directory';
  const reason = notice.reason ? `\n\nReason: ${notice.reason}` : '\n\nThe editor gave no reason.';
  const money =
    notice.money.kind === 'refunded'
      ? `\n\nYour payment of ${moneyText(notice.money.amount, notice.money.currency)} was refunded in full (refund ${notice.money.refundId}). ${REFUND_ARRIVAL_TEXT}`
      : notice.money.kind === 'not_refunded'
        ? '\n\nAs the pricing page and the checkout said, the payment is not refunded when a tool is rejected.'
        : '';
  await sendSubmissionMail(deps, {
    ...notice,
    kind: notice.money.kind === 'refunded' ? 'rejected_refunded' : 'rejected',
    subject: `Your submission "${notice.name}" ${notice.wasLive ? 'was taken down' : 'was not accepted'}`,
    text: `Your submission "${notice.name}" (${notice.url}) ${what}.${reason}${money}\n`,
  });
}

/** How to fix each kind of failure, in the mail's words; changing the address is always offered. */
const FIXES: Partial<Record<CrawlFailureKind, string>> = {
  dns_error: 'Check the spelling of the address: no server answers for that host name.',
  blocked_address: 'Give the public address of the site, the one people open in their browser.',
  blocked_port: 'Give an address without a port number (or with 80 or 443).',
  bad_url: 'Give an http or https address of a web page.',
  http_error: 'Make the page answer normally (HTTP 200), or give the address of a page that does.',
  not_html: 'Give the address of a web page (HTML), not of a file or an API.',
  too_large: 'Give the address of a smaller page, such as the home page.',
  too_many_redirects: 'Give the address the redirects end at.',
};

/** Every crawl attempt failed: the reason in words and how to fix it (change the address, or retry). */
export async function notifyCrawlFailed(
  deps: Deps,
  notice: Notice & { kind: string | null; httpStatus: number | null },
): Promise<void> {
  const error = publicCrawlError(notice.kind, notice.httpStatus);
  const fix = FIXES[error.code] ?? 'If the site was down, press Retry once it is back.';
  await sendSubmissionMail(deps, {
    ...notice,
    kind: 'crawl_failed',
    subject: `We could not read ${notice.name}'s website`,
    text:
      `We tried several times to read ${notice.url} for your submission "${notice.name}", and could not: ${error.message}.\n\n` +
      `How to fix it: ${fix}\n` +
      "If the address is wrong, change it on your submission's page (or with `tooldir edit <site_id> --url <address>`): " +
      'the submission is then crawled again, without paying again. If the site itself was the problem, fix it and press Retry.\n',
  });
}
