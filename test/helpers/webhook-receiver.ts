// A loopback webhook receiver that verifies every request with the five lines docs/webhooks.md documents (read
// from the doc itself, so the doc cannot drift), and a webhook transport that can reach nothing but loopback.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import ipaddr from 'ipaddr.js';
import type { WebhookTransport } from '../../src/deps';
import { listenOnLoopback } from './standins/listen';

/** The documented verification, as code: throws when the signature is invalid or stale. */
export function documentedVerifier(): (header: string, rawBody: string, secret: string) => void {
  const doc = readFileSync(new URL('../../docs/webhooks.md', import.meta.url), 'utf8');
  const match = /<!-- verify-snippet[^>]*-->\s*```js\n([\s\S]*?)```/.exec(doc);
  if (!match?.[1]) throw new Error('docs/webhooks.md has no verify-snippet block');
  const lines = match[1].trimEnd().split('\n');
  if (lines.length !== 5) throw new Error(`the documented verification is ${lines.length} lines, not five`);
  const run = new Function(
    'createHmac',
    'timingSafeEqual',
    'Buffer',
    'header',
    'rawBody',
    'secret',
    lines.join('\n'),
  ) as (...args: unknown[]) => void;
  return (header, rawBody, secret) => run(createHmac, timingSafeEqual, Buffer, header, rawBody, secret);
}

export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** Parsed body: only when the documented verification passed. */
  event?: { id: string; type: string; created: string; data: Record<string, unknown> };
  verifyError?: string;
}

export interface WebhookReceiver {
  url: string;
  port: number;
  received: ReceivedWebhook[];
  /** The secret to verify with (set once the webhook is created). */
  secret?: string;
  close(): Promise<void>;
}

/** `answer(request, n)` picks the response to the n-th request (0-based); default 200. */
export async function startWebhookReceiver(
  answer: (request: ReceivedWebhook, n: number) => { status: number; headers?: Record<string, string> } = () => ({
    status: 200,
  }),
): Promise<WebhookReceiver> {
  const verify = documentedVerifier();
  const receiver: WebhookReceiver = { url: '', port: 0, received: [], close: async () => {} };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const entry: ReceivedWebhook = { path: req.url ?? '/', headers: req.headers, rawBody };
      try {
        verify(String(req.headers['tooldir-signature'] ?? ''), rawBody, receiver.secret ?? '');
        entry.event = JSON.parse(rawBody) as ReceivedWebhook['event'];
      } catch (error) {
        entry.verifyError = String(error);
      }
      const { status, headers } = answer(entry, receiver.received.length);
      receiver.received.push(entry);
      res.writeHead(status, headers).end('ok');
    });
  });
  const listening = await listenOnLoopback(server);
  receiver.url = listening.url;
  receiver.port = listening.port;
  receiver.close = listening.close;
  return receiver;
}

const isLoopback = (host: string) => {
  const h = host.replace(/^\[|\]$/g, '');
  return ipaddr.isValid(h) && ipaddr.process(h).range() === 'loopback';
};

/**
 * A resolver that answers only the names in `dns` and a fetch that connects only to loopback addresses; any other
 * lookup or connection is recorded in `violations` (a test asserts it stays empty) and refused, so even a broken
 * address policy cannot send a packet beyond loopback. A named URL is fetched from the address the table gives,
 * which must itself be loopback.
 */
export function loopbackOnlyWebhookTransport(
  dns: Record<string, string[]> = {},
): WebhookTransport & { violations: string[]; lookups: string[]; fetched: string[] } {
  const violations: string[] = [];
  const lookups: string[] = [];
  const fetched: string[] = [];
  return {
    violations,
    lookups,
    fetched,
    timeoutMs: 5_000,
    retryDelayMs: () => 5,
    resolver: async (hostname) => {
      lookups.push(hostname);
      const addresses = dns[hostname];
      if (!addresses) {
        violations.push(`resolve ${hostname}`);
        throw new Error(`test resolver: no DNS for ${hostname}`);
      }
      return addresses;
    },
    fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
      fetched.push(url.href);
      const mapped = dns[url.hostname]?.[0];
      if (mapped) url.hostname = mapped;
      if (!isLoopback(url.hostname)) {
        violations.push(`fetch ${url.href}`);
        throw new Error(`test fetch: refusing non-loopback ${url.href}`);
      }
      return fetch(url, init);
    }) as typeof fetch,
  };
}
