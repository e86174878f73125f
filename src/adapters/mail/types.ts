export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Sends notifications and sign-in codes: an outbox table locally, an HTTP mail API in production. */
export interface Mailer {
  readonly kind: 'outbox' | 'http';
  send(message: MailMessage): Promise<void>;
}
