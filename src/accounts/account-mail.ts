import type { Deps } from '../deps';
import { isTransactional, type MailKind } from '../catalog/mail-kinds';
import { readMailSettings } from './mail-settings';

/** A mail about one of an account's submissions (every kind in src/catalog/mail-kinds.ts goes through here). */
export interface SubmissionMail {
  accountId: string;
  /** The submission's contact address, else the account's; null sends nothing. */
  to: string | null;
  kind: MailKind;
  siteId: string;
  subject: string;
  /** The body; the link to the submission's page and, for a status mail, the unsubscribe line are added here. */
  text: string;
}

export type MailOutcome = 'sent' | 'opted_out' | 'no_address' | 'failed';

/** Where the owner follows a submission (functions/pages/account/submission-page.ts). */
export const submissionPageUrl = (deps: Deps, siteId: string) => `${deps.origin}/account/submissions/${siteId}`;

/** The one-click unsubscribe link of status mails (functions/pages/mail-unsubscribe.ts). */
export const unsubscribeUrl = (deps: Deps, token: string) => `${deps.origin}/mail/unsubscribe/${token}`;

/**
 * Sends one submission mail through the mail adapter. A status mail honours the account's opt-out and carries an
 * unsubscribe link and RFC 8058's List-Unsubscribe headers; a transactional one is always sent. A failure is
 * logged, never thrown: the transition the mail tells of already happened and must not be retried for the mailer.
 */
export async function sendSubmissionMail(deps: Deps, mail: SubmissionMail): Promise<MailOutcome> {
  if (!mail.to) return 'no_address';
  try {
    const page = `Your submission's page: ${submissionPageUrl(deps, mail.siteId)}`;
    if (isTransactional(mail.kind)) {
      await deps.mail.send({ to: mail.to, subject: mail.subject, text: `${mail.text}\n${page}\n` });
      return 'sent';
    }
    const settings = await readMailSettings(deps, mail.accountId);
    if (!settings.statusMail) return 'opted_out';
    const stop = unsubscribeUrl(deps, settings.token);
    await deps.mail.send({
      to: mail.to,
      subject: mail.subject,
      text: `${mail.text}\n${page}\n\n--\nYou get this because you submitted a tool to tooldir. Stop these progress mails (receipts and refunds still come): ${stop}\n`,
      headers: { 'List-Unsubscribe': `<${stop}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    });
    return 'sent';
  } catch (error) {
    deps.log.error('notification mail failed', {
      to: mail.to,
      subject: mail.subject,
      kind: mail.kind,
      err: String(error),
    });
    return 'failed';
  }
}
