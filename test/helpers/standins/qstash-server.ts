// A local stand-in for the QStash API: records publishes and schedules so tests can assert what the app sent.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenOnLoopback } from './listen';
import { isLoopbackHost } from './loopback';
import { signQStash } from './qstash-signer';
import { header, readBody, sendJson as send } from './http-io';

/** One recorded `POST /v2/publish/{destination}`. */
export interface PublishedMessage {
  messageId: string;
  destination: string;
  body: string;
  /** All request headers, lower-cased names (Upstash-Deduplication-Id, Upstash-Retries, Upstash-Delay, ...). */
  headers: Record<string, string>;
  deduplicationId?: string;
  failureCallback?: string;
  retries?: number;
  delay?: string;
}

/** One schedule created with `POST /v2/schedules/{destination}`. */
export interface RecordedSchedule {
  scheduleId: string;
  destination: string;
  cron: string;
  body: string;
  headers: Record<string, string>;
  createdAt: number;
}

/** A running QStash stand-in; `new Client({ token, baseUrl: url })` talks to it. */
export interface QStashStandIn {
  url: string;
  token: string;
  /** Enqueued messages; a publish repeating an earlier Upstash-Deduplication-Id is answered but not recorded. */
  readonly messages: readonly PublishedMessage[];
  readonly schedules: readonly RecordedSchedule[];
  clearMessages(): void;
  /**
   * Delivers a recorded message to its destination like QStash would (POST, body, Upstash-Signature signed
   * with `signingKey`, Upstash-Message-Id, Upstash-Retried). Only loopback destinations are allowed.
   */
  deliver(message: PublishedMessage, signingKey: string, retried?: number): Promise<Response>;
  close(): Promise<void>;
}

function flatHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) out[name] = String(value);
  return out;
}

/**
 * Starts the stand-in. Routes: POST /v2/publish/{destination} → {messageId}; POST /v2/schedules/{destination}
 * (Upstash-Cron, Upstash-Schedule-Id to update) → {scheduleId}; GET /v2/schedules, GET/DELETE /v2/schedules/{id}.
 */
export async function startQStashStandIn(options: { token?: string } = {}): Promise<QStashStandIn> {
  const token = options.token ?? 'qstash-stand-in-token';
  const messages: PublishedMessage[] = [];
  const schedules = new Map<string, RecordedSchedule>();
  const deduplicated = new Map<string, string>();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (header(req, 'authorization') !== `Bearer ${token}`) return send(res, 401, { error: 'Unauthorized' });
    // The SDK puts the destination URL verbatim after the route: /v2/publish/https://example.com/api/jobs/crawl
    const path = req.url ?? '/';
    const body = await readBody(req);
    const headers = flatHeaders(req);
    if (req.method === 'POST' && path.startsWith('/v2/publish/')) {
      const dedupId = headers['upstash-deduplication-id'];
      const seen = dedupId === undefined ? undefined : deduplicated.get(dedupId);
      // Like QStash: a repeated deduplication id is accepted but not enqueued again.
      if (seen) return send(res, 202, { messageId: seen, deduplicated: true });
      const messageId = `msg_${randomUUID()}`;
      if (dedupId !== undefined) deduplicated.set(dedupId, messageId);
      const retries = headers['upstash-retries'];
      messages.push({
        messageId,
        destination: decodeURI(path.slice('/v2/publish/'.length)),
        body,
        headers,
        deduplicationId: headers['upstash-deduplication-id'],
        failureCallback: headers['upstash-failure-callback'],
        retries: retries === undefined ? undefined : Number(retries),
        delay: headers['upstash-delay'],
      });
      return send(res, 201, { messageId });
    }
    if (req.method === 'POST' && path.startsWith('/v2/schedules/')) {
      const cron = headers['upstash-cron'];
      if (!cron) return send(res, 400, { error: 'Upstash-Cron header is required' });
      const scheduleId = headers['upstash-schedule-id'] ?? `scd_${randomUUID()}`;
      const destination = decodeURI(path.slice('/v2/schedules/'.length));
      schedules.set(scheduleId, { scheduleId, destination, cron, body, headers, createdAt: Date.now() });
      return send(res, 201, { scheduleId });
    }
    if (req.method === 'GET' && path === '/v2/schedules') {
      return send(
        res,
        200,
        [...schedules.values()].map((s) => ({
          scheduleId: s.scheduleId,
          destination: s.destination,
          cron: s.cron,
          createdAt: s.createdAt,
          method: 'POST',
        })),
      );
    }
    const scheduleMatch = /^\/v2\/schedules\/([^/]+)$/.exec(path);
    const found = scheduleMatch?.[1] ? schedules.get(scheduleMatch[1]) : undefined;
    if (scheduleMatch && req.method === 'GET') {
      return found
        ? send(res, 200, {
            scheduleId: found.scheduleId,
            destination: found.destination,
            cron: found.cron,
            createdAt: found.createdAt,
            method: 'POST',
          })
        : send(res, 404, { error: 'schedule not found' });
    }
    if (scheduleMatch && req.method === 'DELETE') {
      if (scheduleMatch[1]) schedules.delete(scheduleMatch[1]);
      res.writeHead(200).end();
      return;
    }
    send(res, 404, { error: `no route ${req.method} ${path}` });
  }

  const listening = await listenOnLoopback(
    createServer(
      (req, res) => void handle(req, res).catch((error: unknown) => send(res, 500, { error: String(error) })),
    ),
  );
  return {
    url: listening.url,
    token,
    messages,
    get schedules() {
      return [...schedules.values()];
    },
    clearMessages() {
      messages.length = 0;
    },
    async deliver(message, signingKey, retried = 0) {
      const target = new URL(message.destination);
      if (!isLoopbackHost(target.hostname)) throw new Error(`refusing to deliver to non-loopback ${target.hostname}`);
      const forwarded: Record<string, string> = {
        'content-type': message.headers['content-type'] ?? 'application/json',
      };
      for (const [name, value] of Object.entries(message.headers)) {
        if (name.startsWith('upstash-forward-')) forwarded[name.slice('upstash-forward-'.length)] = value;
      }
      return fetch(target, {
        method: 'POST',
        body: message.body,
        headers: {
          ...forwarded,
          'upstash-signature': signQStash({ body: message.body, url: message.destination, key: signingKey }),
          'upstash-message-id': message.messageId,
          'upstash-retried': String(retried),
        },
      });
    },
    close: () => listening.close(),
  };
}
