export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** Extra headers, e.g. List-Unsubscribe and List-Unsubscribe-Post (RFC 8058) on mails that are not transactional. */
  headers?: Record<string, string>;
}

/** Sends notifications and sign-in codes: an outbox table locally, an HTTP mail API in production. */
export interface Mailer {
  readonly kind: 'outbox' | 'http';
  send(message: MailMessage): Promise<void>;
}
