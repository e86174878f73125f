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

/** The operator gave a disputed listing to the claimant: the previous owner's mail. */
export function disputeAwardedMail(to: string, site: { name: string; url: string }, domain: string): MailMessage {
  return {
    subject: `Your listing "${site.name}" was given to another owner of ${domain}`,
    to,
    text:
      `An operator decided the dispute over ${site.url} ("${site.name}"): both your account and another one proved control of ${domain}, ` +
      'and the listing is now in the other account.\n\n' +
      'From today you can no longer edit it, retry it or see its statistics. What was paid for it stays with the listing.\n',
  };
}

/** The operator decided a dispute: the claimant's mail, whichever way it went. */
export function disputeDecidedMail(
  to: string,
  site: { name: string; url: string },
  domain: string,
  awarded: boolean,
): MailMessage {
  return awarded
    ? {
        to,
        subject: `The listing "${site.name}" is now in your account`,
        text: `An operator decided your claim of ${site.url} ("${site.name}") on ${domain}: the listing is now in your account.\n`,
      }
    : {
        to,
        subject: `Your claim of "${site.name}" was not granted`,
        text:
          `An operator decided your claim of ${site.url} ("${site.name}") on ${domain}: the listing stays with its current owner, ` +
          `who proved control of ${domain} too.\n\nIf you think this is wrong, reply to this mail.\n`,
      };
}
