// POST /api/mcp/mcp – the MCP server over streamable HTTP (stateless; GET and DELETE answer 405)
import { bodyLimit } from 'hono/body-limit';
import { invalidToolArguments } from './invalid-arguments';
import type { Context } from 'hono';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { clientIp } from '../middleware/client-ip';
import { openCors } from '../middleware/open-cors';
import { ourHostOnly } from '../middleware/our-host';
import type { AppEnv } from '../types';
import { createCaller, type McpCaller } from './caller';
import { createMcpServer } from './server';
import { sendPlainErrorMessages } from './error-prefix';
import { BODY_LIMIT_BYTES, BODY_LIMIT_TEXT } from '../../src/body-limit';

export const MCP_PATH = '/api/mcp/mcp';

/** A JSON-RPC error response (id null): what MCP clients expect at the HTTP level instead of a REST error body. */
export function jsonRpcError(
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

/**
 * The DNS-rebinding defence of both MCP endpoints (the transport spec's Origin warning): the request must be
 * addressed to our host (middleware/our-host.ts). Foreign Origins are welcome: nothing here reads a cookie, so a
 * browser-based client on any origin may call, with CORS (middleware/open-cors.ts).
 */
export const mcpHostOnly = ourHostOnly((_c, host) =>
  jsonRpcError(403, -32000, `Forbidden: Host ${host} is not this server.`),
);

/** Raw responses bypass the headers Hono prepared before the handler ran, so the request id is set again here. */
export function withRequestId(answer: (c: Context<AppEnv>) => Promise<Response>) {
  return async (c: Context<AppEnv>): Promise<Response> => {
    const response = await answer(c);
    response.headers.set('X-Request-Id', c.get('requestId'));
    return response;
  };
}

/** MCP_PATH and POST /mcp (protected.ts) share the body limit: nothing reads more than BODY_LIMIT_BYTES. */
export const mcpBodyLimit = bodyLimit({
  maxSize: BODY_LIMIT_BYTES,
  onError: () => jsonRpcError(413, -32000, `Request body larger than ${BODY_LIMIT_TEXT}.`),
});

async function answer(c: Context<AppEnv>): Promise<Response> {
  if (c.req.method !== 'POST') {
    // Stateless: no standalone SSE stream to GET and no session to DELETE.
    return jsonRpcError(405, -32000, `Method not allowed: this MCP endpoint is stateless and accepts POST only.`, {
      Allow: 'POST',
    });
  }
  const caller = createCaller({
    deps: c.get('deps'),
    requestId: c.get('requestId'),
    clientIp: clientIp(c),
    authorization: c.req.header('authorization'),
    url: c.req.url,
  });
  return serveMcp(c, caller);
}

/** Answers one POST with a fresh server whose tools act for `caller` (the open and the OAuth endpoint alike). */
export async function serveMcp(c: Context<AppEnv>, caller: McpCaller): Promise<Response> {
  const invalid = await invalidToolArguments(c.req.raw);
  if (invalid) return invalid;
  const deps = c.get('deps');
  const server = createMcpServer(caller, undefined, c.env);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: BODY_LIMIT_BYTES,
  });
  sendPlainErrorMessages(transport);
  try {
    await server.connect(transport);
    return await transport.handleRequest(c.req.raw);
  } catch (error) {
    deps.log.error('mcp request failed', { requestId: caller.requestId, err: String(error) });
    return jsonRpcError(500, -32603, 'Internal error. Please retry later.');
  } finally {
    // JSON response mode resolves only after every answer is written, so closing here cuts nothing short.
    await server.close().catch(() => undefined);
  }
}

export function register(app: OpenAPIHono<AppEnv>) {
  // The body limit holds before anything reads the body (also chunked bodies without a length).
  app.use(MCP_PATH, mcpHostOnly, openCors, mcpBodyLimit);
  app.all(MCP_PATH, withRequestId(answer));
}
