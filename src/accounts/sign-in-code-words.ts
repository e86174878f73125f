// Where a person reads a sign-in code when no mail leaves the server (local mode's mail outbox): the start banner
// and the code page say the same words, so a newcomer trying the website on their machine is never left waiting
// for an e-mail. The outbox mailer (src/adapters/mail/outbox.ts) logs each mail at info level, its subject
// carrying the code.
import type { Config } from '../config';

/** Undefined when mail is really sent; otherwise where the code can be read. */
export function undeliveredCodeWhere(
  config: Pick<Config, 'local' | 'logLevel'>,
  mailKind: 'outbox' | 'http',
): string | undefined {
  if (mailKind !== 'outbox' || !config.local) return undefined;
  const logged = config.logLevel === 'debug' || config.logLevel === 'info';
  return logged
    ? 'No e-mail leaves this machine: each sign-in code is printed in the terminal where npm start runs (a "mail (outbox)" line) and kept in the mail_outbox table.'
    : `No e-mail leaves this machine: each sign-in code is kept in the mail_outbox table (LOG_LEVEL=${config.logLevel} keeps it out of the terminal).`;
}
