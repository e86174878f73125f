// A small MCP server on 127.0.0.1 built with the official SDK (McpServer), speaking streamable HTTP at /mcp and
// the older HTTP+SSE transport at /sse (+ /messages), whose tool list a test can change between two probes.
// Each session gets a fresh McpServer with the tools of that moment, as a restarted server would.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

export interface TestTool {
  name: string;
  title?: string;
  description?: string;
}

export interface SdkMcpServer {
  /** http://127.0.0.1:port */
  origin: string;
  port: number;
  setTools(tools: TestTool[]): void;
  /** Requests seen, as `METHOD path` (and whether any carried a cookie or an authorization header). */
  requests: string[];
  sawCredentials: boolean;
  close(): Promise<void>;
}

export async function startSdkMcpServer(initial: TestTool[]): Promise<SdkMcpServer> {
  let tools = initial;
  const streamable = new Map<string, StreamableHTTPServerTransport>();
  const sse = new Map<string, SSEServerTransport>();
  const state = { requests: [] as string[], sawCredentials: false };

  const newServer = () => {
    const server = new McpServer({ name: 'acme-test-mcp', version: '1.2.3' });
    for (const tool of tools) {
      server.registerTool(
        tool.name,
        {
          ...(tool.title && { title: tool.title }),
          ...(tool.description && { description: tool.description }),
          inputSchema: { query: z.string() },
        },
        async () => ({ content: [{ type: 'text', text: 'ok' }] }),
      );
    }
    return server;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    state.requests.push(`${req.method} ${url.pathname}`);
    if (req.headers.cookie || req.headers.authorization) state.sawCredentials = true;
    if (url.pathname === '/mcp') {
      const id = req.headers['mcp-session-id'];
      let transport = typeof id === 'string' ? streamable.get(id) : undefined;
      if (!transport) {
        transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (sessionId) => void streamable.set(sessionId, transport!),
        });
        await newServer().connect(transport);
      }
      await transport.handleRequest(req, res);
      return;
    }
    if (url.pathname === '/sse' && req.method === 'GET') {
      const transport = new SSEServerTransport('/messages', res);
      sse.set(transport.sessionId, transport);
      res.on('close', () => sse.delete(transport.sessionId));
      await newServer().connect(transport);
      return;
    }
    if (url.pathname === '/messages' && req.method === 'POST') {
      const transport = sse.get(url.searchParams.get('sessionId') ?? '');
      if (!transport) return void res.writeHead(404).end();
      await transport.handlePostMessage(req, res);
      return;
    }
    res.writeHead(url.pathname === '/sse' ? 405 : 404).end();
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    setTools: (next) => void (tools = next),
    get requests() {
      return state.requests;
    },
    get sawCredentials() {
      return state.sawCredentials;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
