export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** Extra headers, e.g. RFC 8058's List-Unsubscribe and List-Unsubscribe-Post on mails a person can turn off. */
  headers?: Record<string, string>;
}

/** Sends notifications and sign-in codes: an outbox table locally, an HTTP mail API in production. */
export interface Mailer {
  readonly kind: 'outbox' | 'http';
  send(message: MailMessage): Promise<void>;
}
