import type { Db } from '../../db/client';
import { mailOutbox } from '../../db/schema';
import type { Logger } from '../../log';
import type { MailMessage, Mailer } from './types';

/** Local mail: a row in mail_outbox plus a console line, so a local user can read what was "sent". */
export function createOutboxMailer(db: Db, log: Logger): Mailer {
  return {
    kind: 'outbox',
    async send(message: MailMessage) {
      await db
        .insert(mailOutbox)
        .values({ to: message.to, subject: message.subject, text: message.text, headers: message.headers ?? null });
      log.info('mail (outbox)', { to: message.to, subject: message.subject });
    },
  };
}
