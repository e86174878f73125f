// The owner's mails about their listing's health (docs/health.md "Consequences"). Sent through the mail adapter; a
// failure is logged, never thrown: the record is written and the webhook row is in the outbox either way.
import type { Deps } from '../deps';
import { healthReasonWords, type HealthReasonKind } from '../catalog/health-states';
import { formatTime } from '../display-time';
import type { HealthAfter } from './health-rules';
import type { ClaimedTool } from './health-store';

/**
 * Mails the owner the notice `after.notice` names, unless the account turned health mails off (they are not
 * transactional). The webhook does not depend on this: its outbox row was written with the record.
 */
export async function mailHealthNotice(deps: Deps, tool: ClaimedTool, after: HealthAfter): Promise<void> {
  if (!tool.ownerEmail || !after.notice || !tool.healthMails) return;
  const { subject, text } = healthMail(tool, after, deps.config.health.hideAfterDays);
  const optOut = `${deps.origin}/health-mails/${tool.healthMailToken}`;
  try {
    await deps.mail.send({
      to: tool.ownerEmail,
      subject,
      text: `${text}\nYou get these e-mails when the daily check of a tool of yours finds a problem or its end. Stop them: ${optOut}\n`,
      // RFC 8058 one-click: a mail client POSTs "List-Unsubscribe=One-Click" to the link, which turns the mails off.
      headers: { 'List-Unsubscribe': `<${optOut}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    });
  } catch (error) {
    deps.log.error('health mail failed', { site_id: tool.siteId, err: String(error) });
  }
}

/** Subject and text of one notice (exported for its tests). */
export function healthMail(
  tool: ClaimedTool,
  after: HealthAfter,
  hideAfterDays: number,
): { subject: string; text: string } {
  const page = tool.liveUrl ? `\nIts page: ${tool.liveUrl}\n` : '\n';
  const reason = after.reasonKind ? healthReasonWords(after.reasonKind as HealthReasonKind, after.httpStatus) : '';
  const since = after.failingSince ? formatTime(after.failingSince) : '';
  const placement = after.hidden ? placementWords(tool) : '';
  const back = 'The first check that finds it answering again brings the listing back by itself; nothing is deleted.';
  switch (after.notice) {
    case 'ok':
      return {
        subject: `${tool.name} answers again`,
        text: `Our daily check of "${tool.name}" (${tool.url}) found it answering again. Its listing is shown as before.${page}`,
      };
    case 'moved':
      return {
        subject: `${tool.name} now leads to another domain`,
        text:
          `Our daily check of "${tool.name}" (${tool.url}) found that it now leads to ${after.movedTo ?? 'another domain'}. ` +
          `We never follow such a move silently, so the listing is hidden from search, categories, the home page and the ` +
          `sitemap; its page stays with a notice.${placement}\n\nIf the move is yours, submit an edit of the URL from your ` +
          `account, or serve the tool from its listed address again: ${back}${page}`,
      };
    case 'hidden':
      return {
        subject: `${tool.name} is hidden from the directory: its website has not answered since ${since}`,
        text:
          `Our daily check of "${tool.name}" (${tool.url}) has failed since ${since} (${reason}). The listing is now hidden ` +
          `from search, categories, the home page and the sitemap; its page stays reachable with a notice.${placement}\n\n${back}${page}`,
      };
    default:
      return {
        subject: `${tool.name}: its website has not answered since ${since}`,
        text:
          `Our daily check of "${tool.name}" (${tool.url}) has failed every day since ${since} (${reason}). ` +
          (hideAfterDays > 0
            ? `If it still fails ${hideAfterDays} days after the first failure, the listing will be hidden from search, categories, ` +
              `the home page and the sitemap until it answers again.`
            : 'The listing is hidden until it answers again.') +
          `${page}`,
      };
  }
}

/** What hiding means for a paid placement: said plainly, in the same mail. */
function placementWords(tool: ClaimedTool): string {
  if (!tool.isFeature && !tool.isSponsor) return '';
  const what = tool.isSponsor ? 'sponsored placement' : 'Featured badge';
  return (
    `\n\nYour listing has a ${what}: while it is hidden, its ${what} is not shown ` +
    `anywhere (search, categories and the home page leave it out), and ${tool.isSponsor ? 'the sponsored slot goes to the next live sponsor' : 'the badge returns with the listing'}. ` +
    'Nothing is cancelled or refunded by this; the placement resumes as it was when the site answers again.'
  );
}
