import type { MailMessage } from '../adapters/mail/types';

const day = (iso: string) => iso.slice(0, 10);

/** The first failed re-check: what failed, why, and the day the proof lapses unless the record or file is back. */
export function proofFailingMail(
  to: string,
  domain: string,
  method: 'dns' | 'http',
  reason: string,
  lapsesAt: string,
): MailMessage {
  const what = method === 'dns' ? 'DNS record' : 'verification file';
  return {
    to,
    subject: `Your proof of ${domain} failed its monthly check`,
    text:
      `The ${what} that proves you control ${domain} could not be confirmed: ${reason}.\n\n` +
      `Put it back before ${day(lapsesAt)} and nothing changes (we check again every day). After that day the proof ` +
      `lapses and your listings on ${domain} lose the "Verified maker" mark until you verify the domain again.\n`,
  };
}

/** The proof lapsed after its grace period: the domain is pending again and the mark is gone. */
export function proofLapsedMail(to: string, domain: string, why: string): MailMessage {
  return {
    to,
    subject: `Your proof of ${domain} lapsed`,
    text:
      `The proof that you control ${domain} lapsed (${why}): your listings on ${domain} no ` +
      'longer show the "Verified maker" mark. Verify the domain again in your account (Domains) to get it back.\n',
  };
}
