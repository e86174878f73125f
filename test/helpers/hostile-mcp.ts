// Hand-written MCP endpoints on 127.0.0.1 that misbehave on purpose (docs/mcp-servers.md "Bounds"): each path is one
// fault. A well-behaved default answers initialize and tools/list as JSON, so each fault can pick its one step.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

type Rpc = { id?: number; method: string; params?: { cursor?: string } };
type Route = (rpc: Rpc, req: IncomingMessage, res: ServerResponse) => boolean | void;

const json = (res: ServerResponse, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(200, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

const initialized = (id: number | undefined, protocolVersion = '2025-06-18') => ({
  jsonrpc: '2.0',
  id,
  result: { protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'hostile', version: '6.6.6' } },
});

const toolsAnswer = (id: number | undefined, tools: unknown[], nextCursor?: string) => ({
  jsonrpc: '2.0',
  id,
  result: { tools, ...(nextCursor && { nextCursor }) },
});

export interface HostileMcp {
  origin: string;
  port: number;
  close(): Promise<void>;
}

/** The faults, by path. Each answers initialize normally unless initialize is the fault. */
function routes(origin: () => string): Record<string, Route> {
  return {
    '/hang': () => true, // never answers anything
    '/endless': (rpc, _req, res) => {
      if (rpc.method !== 'initialize') return false;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = `: ${'x'.repeat(4096)}\n\n`;
      const timer = setInterval(() => res.write(chunk), 1);
      res.on('close', () => clearInterval(timer));
      return true;
    },
    '/many-tools': (rpc, _req, res) => {
      if (rpc.method !== 'tools/list') return false;
      const tools = Array.from({ length: 10_000 }, (_, i) => ({ name: `t${i}`, inputSchema: { type: 'object' } }));
      json(res, toolsAnswer(rpc.id, tools));
      return true;
    },
    '/huge-description': (rpc, _req, res) => {
      if (rpc.method !== 'tools/list') return false;
      json(res, toolsAnswer(rpc.id, [{ name: 'big', description: 'd'.repeat(5 * 1024 * 1024), inputSchema: {} }]));
      return true;
    },
    '/long-description': (rpc, _req, res) => {
      if (rpc.method !== 'tools/list') return false;
      json(
        res,
        toolsAnswer(rpc.id, [
          {
            name: 'long',
            description: 'é'.repeat(5000),
            annotations: { title: 'Long' },
            inputSchema: { type: 'object' },
          },
        ]),
      );
      return true;
    },
    '/liar': (rpc, _req, res) => {
      if (rpc.method !== 'initialize') return false;
      json(res, initialized(rpc.id, '1999-01-01'));
      return true;
    },
    '/paged': (rpc, _req, res) => {
      if (rpc.method !== 'tools/list') return false;
      const page = rpc.params?.cursor === 'p2' ? 2 : 1;
      json(res, toolsAnswer(rpc.id, [{ name: `page${page}`, inputSchema: {} }], page === 1 ? 'p2' : undefined));
      return true;
    },
    '/cursor-loop': (rpc, _req, res) => {
      if (rpc.method !== 'tools/list') return false;
      const n = Number(rpc.params?.cursor ?? 0);
      json(res, toolsAnswer(rpc.id, [{ name: `n${n}`, inputSchema: {} }], String(n + 1)));
      return true;
    },
    '/redirect-private': (_rpc, _req, res) => {
      res.writeHead(307, { location: 'http://169.254.169.254/latest/meta-data' }).end();
      return true;
    },
    '/auth-with-metadata': (_rpc, _req, res) => {
      res
        .writeHead(401, {
          'www-authenticate': `Bearer error="invalid_token", resource_metadata="${origin()}/.well-known/oauth-protected-resource"`,
        })
        .end();
      return true;
    },
    '/auth-bare': (_rpc, _req, res) => {
      res.writeHead(401, { 'www-authenticate': 'Bearer realm="mcp"' }).end();
      return true;
    },
    '/html': (_rpc, _req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Not MCP</title>');
      return true;
    },
    '/rpc-error': (rpc, _req, res) => {
      if (rpc.method !== 'tools/list') return false;
      json(res, { jsonrpc: '2.0', id: rpc.id, error: { code: -32601, message: 'no tools here' } });
      return true;
    },
  };
}

export async function startHostileMcp(): Promise<HostileMcp> {
  let origin = '';
  const table = routes(() => origin);
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (path === '/.well-known/oauth-protected-resource') {
      json(res, { resource: `${origin}/auth-with-metadata`, authorization_servers: ['https://auth.example.com'] });
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST') return void res.writeHead(405).end();
      let rpc: Rpc;
      try {
        rpc = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Rpc;
      } catch {
        return void res.writeHead(400).end();
      }
      const route = table[path];
      if (route?.(rpc, req, res)) return;
      if (!route) return void res.writeHead(404).end();
      if (rpc.id === undefined) return void res.writeHead(202).end();
      if (rpc.method === 'initialize') return json(res, initialized(rpc.id));
      if (rpc.method === 'tools/list') return json(res, toolsAnswer(rpc.id, [{ name: 'only', inputSchema: {} }]));
      json(res, { jsonrpc: '2.0', id: rpc.id, error: { code: -32601, message: 'unknown method' } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    port,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
