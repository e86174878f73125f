// A local stand-in for Neon's SQL-over-HTTP endpoint (POST /sql) and its WebSocket proxy (/v1), over real PostgreSQL.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { neonConfig } from '@neondatabase/serverless';
import pg from 'pg';
import ws from 'ws';
import { listenOnLoopback } from './listen';
import { NeonRequestError, type NeonQuery, NeonSqlExecutor } from './neon-sql';
import { createWsProxy } from './neon-ws-proxy';
import { header, readBody, sendJson as send } from './http-io';

/** A running Neon stand-in. */
export interface NeonStandIn {
  /** http://127.0.0.1:PORT */
  url: string;
  /** `${url}/sql`: the value for `neonConfig.fetchEndpoint`. */
  fetchEndpoint: string;
  /** The value for `neonConfig.wsProxy`: routes the Pool's WebSocket to `/v1?address=host:port`. */
  wsProxy: (host: string, port: number | string) => string;
  /** Number of /sql requests served (round-trip counting in benches). */
  readonly requestCount: number;
  close(): Promise<void>;
}

const ERROR_FIELDS = [
  'severity',
  'code',
  'detail',
  'hint',
  'position',
  'internalPosition',
  'internalQuery',
  'where',
  'schema',
  'table',
  'column',
  'dataType',
  'constraint',
  'file',
  'line',
  'routine',
] as const;

/** Neon answers PostgreSQL errors as 400 with the error's fields; everything else is a 5xx. */
function sendError(res: ServerResponse, error: unknown): void {
  if (error instanceof pg.DatabaseError) {
    const body: Record<string, unknown> = { message: error.message };
    for (const field of ERROR_FIELDS) if (error[field] !== undefined) body[field] = error[field];
    send(res, 400, body);
  } else if (error instanceof NeonRequestError) {
    send(res, 400, { message: error.message });
  } else {
    // Connection failures (database down): the Neon client turns a non-400 into "Server error (HTTP status 5xx)".
    send(res, 503, { message: error instanceof Error ? error.message : String(error) });
  }
}

function parseBody(text: string): { queries?: NeonQuery[]; single?: NeonQuery } {
  const body: unknown = JSON.parse(text);
  if (body && typeof body === 'object' && 'queries' in body && Array.isArray(body.queries)) {
    return { queries: body.queries as NeonQuery[] };
  }
  if (body && typeof body === 'object' && 'query' in body && typeof body.query === 'string') {
    return { single: body as NeonQuery };
  }
  throw new NeonRequestError('body must be {query, params} or {queries: [...]}');
}

async function handleSql(executor: NeonSqlExecutor, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const connectionString = header(req, 'Neon-Connection-String');
  if (!connectionString) return send(res, 400, { message: 'missing Neon-Connection-String header' });
  const arrayMode = header(req, 'Neon-Array-Mode') === 'true';
  try {
    const { queries, single } = parseBody(await readBody(req));
    if (single) return send(res, 200, await executor.single(connectionString, single, arrayMode));
    const flag = (name: string) => {
      const value = header(req, name);
      return value === undefined ? undefined : value === 'true';
    };
    const results = await executor.batch(connectionString, queries ?? [], arrayMode, {
      isolationLevel: header(req, 'Neon-Batch-Isolation-Level'),
      readOnly: flag('Neon-Batch-Read-Only'),
      deferrable: flag('Neon-Batch-Deferrable'),
    });
    send(res, 200, { results });
  } catch (error) {
    sendError(res, error instanceof SyntaxError ? new NeonRequestError('body is not JSON') : error);
  }
}

/**
 * Starts the stand-in on a free loopback port. It reaches only loopback databases named by each request's
 * Neon-Connection-String (so one stand-in serves any throwaway server); `poolSize` (default 20) caps the
 * PostgreSQL connections per database, queueing the rest like Neon's pooler.
 * @example
 * const neon = await startNeonStandIn();
 * configureNeonClient(neon);
 * const db = drizzle({ client: neon(pgServer.connectionString) });
 */
export async function startNeonStandIn(options: { poolSize?: number } = {}): Promise<NeonStandIn> {
  const executor = new NeonSqlExecutor(options.poolSize);
  const proxy = createWsProxy('/v1');
  let requestCount = 0;
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://stand-in').pathname;
    if (req.method === 'POST' && path === '/sql') {
      requestCount++;
      void handleSql(executor, req, res);
    } else send(res, 404, { message: `no route ${req.method} ${path}` });
  });
  server.on('upgrade', (req, socket, head) => proxy.handleUpgrade(req, socket, head));
  const listening = await listenOnLoopback(server);
  const host = `127.0.0.1:${listening.port}`;
  return {
    url: listening.url,
    fetchEndpoint: `${listening.url}/sql`,
    wsProxy: (dbHost, dbPort) => `${host}/v1?address=${dbHost}:${dbPort}`,
    get requestCount() {
      return requestCount;
    },
    async close() {
      proxy.close();
      await listening.close();
      await executor.close();
    },
  };
}

/**
 * Points the global `neonConfig` of @neondatabase/serverless at the stand-in: HTTP queries to its /sql,
 * Pool/Client WebSockets through its proxy, plain ws:// and no pipelined password auth (trust auth locally).
 */
export function configureNeonClient(standIn: Pick<NeonStandIn, 'fetchEndpoint' | 'wsProxy'>): void {
  neonConfig.fetchEndpoint = standIn.fetchEndpoint;
  neonConfig.wsProxy = standIn.wsProxy;
  neonConfig.useSecureWebSocket = false;
  neonConfig.pipelineConnect = false;
  neonConfig.pipelineTLS = false;
  neonConfig.forceDisablePgSSL = true;
  neonConfig.webSocketConstructor = ws;
}
