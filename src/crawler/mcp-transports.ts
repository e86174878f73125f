// The two ways the probe talks to an MCP server (docs/mcp-servers.md): streamable HTTP (POST each message, the
// answer as JSON or as an event stream) and the older HTTP+SSE transport (one GET event stream that names an
// endpoint to POST to; answers come on the stream). Every request goes through the crawler's safe fetch: each
// hop's address checked, redirects re-checked, no credentials and no cookies sent.
import type { Resolver } from '../adapters/resolver/resolver';
import {
  answerTo,
  BoundedReader,
  type ByteBudget,
  EventStream,
  McpProbeStop,
  parseJson,
  resultOf,
  stopForFailure,
} from './mcp-answers';
import { mediaType } from './decode-html';
import { discardBody, fetchFollowingCheckedRedirects } from './safe-fetch';

export interface WireOptions {
  fetch: typeof fetch;
  resolver: Resolver;
  allowPrivate: boolean;
  maxRedirects: number;
  userAgent: string;
  signal: AbortSignal;
  budget: ByteBudget;
}

/** A 401: what the server said about how to authenticate. */
export class McpAuthRequired extends Error {
  override readonly name = 'McpAuthRequired';
  constructor(
    readonly wwwAuthenticate: string | null,
    readonly url: URL,
  ) {
    super('the server answered 401');
  }
}

export interface McpChannel {
  readonly transport: 'streamable_http' | 'sse';
  request(id: number, method: string, params: Record<string, unknown>): Promise<Record<string, unknown>>;
  notify(method: string): Promise<void>;
  /** Sent as MCP-Protocol-Version once initialize agreed on one. */
  protocolVersion: string | null;
  close(): void;
}

const JSON_AND_EVENTS = 'application/json, text/event-stream';

async function send(
  url: string | URL,
  options: WireOptions,
  init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string },
) {
  const fetched = await fetchFollowingCheckedRedirects(String(url), {
    fetch: options.fetch,
    resolver: options.resolver,
    allowPrivate: options.allowPrivate,
    maxRedirects: options.maxRedirects,
    signal: options.signal,
    // Never credentials or cookies: only what MCP needs, and our name.
    headers: { 'user-agent': options.userAgent, ...init.headers },
    method: init.method,
    ...(init.body !== undefined && { body: init.body }),
  });
  if (!fetched.ok) throw stopForFailure(fetched.error);
  if (fetched.response.status === 401) {
    discardBody(fetched.response);
    throw new McpAuthRequired(fetched.response.headers.get('www-authenticate'), fetched.url);
  }
  return fetched;
}

const rpc = (id: number, method: string, params: Record<string, unknown>) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, params });

/** The POST of initialize answered a 4xx the way servers of the older transport answer it (spec "Backwards compatibility"). */
export class LegacyHint extends Error {
  override readonly name = 'LegacyHint';
  constructor(readonly httpStatus: number) {
    super(`initialize was answered HTTP ${httpStatus}`);
  }
}

/** Streamable HTTP: every message is a POST to the endpoint; the session id the server gives is sent back. */
export function streamableHttp(endpoint: string, options: WireOptions): McpChannel {
  let sessionId: string | null = null;
  const headers = (channel: McpChannel): Record<string, string> => ({
    'content-type': 'application/json',
    accept: JSON_AND_EVENTS,
    ...(sessionId && { 'mcp-session-id': sessionId }),
    ...(channel.protocolVersion && { 'mcp-protocol-version': channel.protocolVersion }),
  });
  const channel: McpChannel = {
    transport: 'streamable_http',
    protocolVersion: null,
    async request(id, method, params) {
      const { response, url } = await send(endpoint, options, {
        method: 'POST',
        headers: headers(channel),
        body: rpc(id, method, params),
      });
      if (!response.ok) {
        discardBody(response);
        const fallback = method === 'initialize' && response.status >= 400 && response.status < 500;
        if (fallback && response.status !== 403 && response.status !== 429) throw new LegacyHint(response.status);
        throw new McpProbeStop(
          'http_error',
          `${url.href} answered ${method} with HTTP ${response.status}`,
          response.status,
        );
      }
      const session = response.headers.get('mcp-session-id');
      if (method === 'initialize' && session) sessionId = session.slice(0, 1024);
      const body = new BoundedReader(response, options.budget, options.signal);
      try {
        const type = mediaType(response.headers.get('content-type'));
        if (type === 'application/json') {
          const answer = answerTo(id, parseJson(await body.text(), 'not_mcp', method));
          if (!answer) throw new McpProbeStop('protocol_error', `${method}: no answer ${id}`);
          return resultOf(answer, method);
        }
        if (type === 'text/event-stream') return await awaitAnswer(new EventStream(body), id, method);
        throw new McpProbeStop('not_mcp', `${method} answered ${type || 'untyped'}`);
      } finally {
        body.cancel();
      }
    },
    async notify(method) {
      const { response } = await send(endpoint, options, {
        method: 'POST',
        headers: headers(channel),
        body: JSON.stringify({ jsonrpc: '2.0', method }),
      });
      discardBody(response); // 202 Accepted, or a server that ignores it: either way nothing to read
    },
    close() {},
  };
  return channel;
}

/** Reads events until the JSON-RPC answer to `id` (other messages, such as logging or pings, are skipped). */
async function awaitAnswer(stream: EventStream, id: number, method: string): Promise<Record<string, unknown>> {
  for (;;) {
    const event = await stream.next(method);
    if (event.event !== 'message') continue;
    const answer = answerTo(id, parseJson(event.data, 'protocol_error', method));
    if (answer) return resultOf(answer, method);
  }
}

/**
 * The older HTTP+SSE transport: a GET opens the stream, whose first `endpoint` event names where to POST (on the
 * stream's own origin: a server cannot send the probe elsewhere); each answer arrives on the stream.
 */
export async function legacySse(endpoint: string, options: WireOptions): Promise<McpChannel> {
  const { response, url } = await send(endpoint, options, { method: 'GET', headers: { accept: 'text/event-stream' } });
  if (!response.ok) {
    discardBody(response);
    throw new McpProbeStop(
      'http_error',
      `${url.href} answered the event stream's GET with HTTP ${response.status}`,
      response.status,
    );
  }
  if (mediaType(response.headers.get('content-type')) !== 'text/event-stream') {
    discardBody(response);
    throw new McpProbeStop('not_mcp', 'GET: no event stream');
  }
  const body = new BoundedReader(response, options.budget, options.signal);
  const stream = new EventStream(body);
  let postTo: URL;
  try {
    let event = await stream.next('endpoint');
    while (event.event !== 'endpoint') event = await stream.next('endpoint');
    try {
      postTo = new URL(event.data.trim(), url);
    } catch {
      throw new McpProbeStop('protocol_error', 'bad endpoint event');
    }
    if (postTo.origin !== url.origin) throw new McpProbeStop('protocol_error', `endpoint on ${postTo.origin}`);
  } catch (error) {
    body.cancel();
    throw error;
  }
  const post = async (message: string) => {
    const sent = await send(postTo, options, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: message,
    });
    discardBody(sent.response);
    if (!sent.response.ok)
      throw new McpProbeStop(
        'http_error',
        `${sent.url.href} answered a message with HTTP ${sent.response.status}`,
        sent.response.status,
      );
  };
  return {
    transport: 'sse',
    protocolVersion: null,
    async request(id, method, params) {
      body.nextAnswer();
      await post(rpc(id, method, params));
      return awaitAnswer(stream, id, method);
    },
    async notify(method) {
      await post(JSON.stringify({ jsonrpc: '2.0', method }));
    },
    close() {
      body.cancel();
    },
  };
}
