import type { MailMessage } from '../adapters/mail/types';

/** The previous owner's mail: what happened, what they lose, and that the money stays with the listing. */
export function claimedMail(to: string, site: { name: string; url: string }, domain: string): MailMessage {
  return {
    to,
    subject: `Your listing "${site.name}" was claimed by the owner of ${domain}`,
    text:
      `The listing of ${site.url} ("${site.name}") is now in the account that proved control of ${domain}.\n\n` +
      'From today you can no longer edit it, retry it or see its statistics. What was paid for it stays with the listing.\n' +
      `If you control ${domain}, prove it in your account (Domains) and write to us: an operator decides when both accounts hold a proof.\n`,
  };
}
