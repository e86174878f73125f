// A local stand-in for the HTTP mail API (src/adapters/mail/http.ts): records what the app sent, so suites
// that run outside local mode (MAIL_API_URL required) can read sign-in codes and notifications.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenOnLoopback } from './listen';
import { header, readBody, sendJson as send } from './http-io';

/** One accepted `POST /send` body, as the app's HTTP mailer sends it. */
export interface SentMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  /** Extra headers (Resend's `headers` field), e.g. List-Unsubscribe on the health mails. */
  headers?: Record<string, string>;
}

/** A running mail stand-in: MAIL_API_URL = `${url}/send`, MAIL_API_KEY = key. */
export interface MailStandIn {
  url: string;
  /** The send endpoint, for MAIL_API_URL. */
  sendUrl: string;
  key: string;
  readonly messages: readonly SentMail[];
  /** Resolves with the first message (already received or still to come) that matches. */
  waitFor(match: (mail: SentMail) => boolean): Promise<SentMail>;
  /** Env that points the app at this stand-in. */
  env: { MAIL_API_URL: string; MAIL_API_KEY: string };
  close(): Promise<void>;
}

const isMail = (v: unknown): v is SentMail =>
  typeof v === 'object' &&
  v !== null &&
  ['from', 'to', 'subject', 'text'].every((k) => typeof (v as Record<string, unknown>)[k] === 'string');

/** Starts the stand-in: POST /send with `Authorization: Bearer <key>` and JSON {from,to,subject,text} → 202. */
export async function startMailStandIn(options: { key?: string } = {}): Promise<MailStandIn> {
  const key = options.key ?? 'mail-stand-in-key-0000000000';
  const messages: SentMail[] = [];
  const waiting: Array<{ match: (mail: SentMail) => boolean; resolve: (mail: SentMail) => void }> = [];

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST' || req.url !== '/send')
      return send(res, 404, { error: `no route ${req.method} ${req.url}` });
    if (header(req, 'authorization') !== `Bearer ${key}`) return send(res, 401, { error: 'Unauthorized' });
    let body: unknown;
    try {
      body = JSON.parse(await readBody(req));
    } catch {
      return send(res, 400, { error: 'body is not JSON' });
    }
    if (!isMail(body)) return send(res, 422, { error: 'from, to, subject and text are required strings' });
    const extra = (body as { headers?: unknown }).headers;
    const mail: SentMail = {
      from: body.from,
      to: body.to,
      subject: body.subject,
      text: body.text,
      ...(extra !== null && typeof extra === 'object' && { headers: extra as Record<string, string> }),
    };
    messages.push(mail);
    for (const w of waiting.filter((w) => w.match(mail))) {
      waiting.splice(waiting.indexOf(w), 1);
      w.resolve(mail);
    }
    send(res, 202, { id: `mail_${messages.length}` });
  }

  const listening = await listenOnLoopback(
    createServer(
      (req, res) => void handle(req, res).catch((error: unknown) => send(res, 500, { error: String(error) })),
    ),
  );
  const sendUrl = `${listening.url}/send`;
  const waitFor = (match: (mail: SentMail) => boolean) =>
    new Promise<SentMail>((resolve) => {
      const seen = messages.find(match);
      if (seen) resolve(seen);
      else waiting.push({ match, resolve });
    });
  return {
    url: listening.url,
    sendUrl,
    key,
    messages,
    waitFor,
    env: { MAIL_API_URL: sendUrl, MAIL_API_KEY: key },
    close: listening.close,
  };
}
