import type { MailMessage, Mailer } from './types';

/**
 * Production mail through an HTTP mail API taking `{from, to, subject, text}` JSON with a bearer key
 * (the shape of Resend's and Postmark-like APIs; MAIL_API_URL points at the send endpoint).
 */
export function createHttpMailer(options: { apiUrl: string; apiKey?: string; from: string }): Mailer {
  return {
    kind: 'http',
    async send(message: MailMessage) {
      const response = await fetch(options.apiUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(options.apiKey && { authorization: `Bearer ${options.apiKey}` }),
        },
        body: JSON.stringify({ from: options.from, ...message }),
        signal: AbortSignal.timeout(10_000),
      });
      if (!response.ok) throw new Error(`mail API answered ${response.status}`);
    },
  };
}
