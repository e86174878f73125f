// A loopback HTTP server for crawler tests: routes by path, records every request it receives.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FixtureHandler = (request: IncomingMessage, response: ServerResponse) => void;

export interface FixtureHit {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
}

export interface FixtureSite {
  /** e.g. http://127.0.0.1:40123 */
  origin: string;
  port: number;
  /** Every request received, in order. */
  hits: FixtureHit[];
  /** Adds or replaces the handler of an exact path (query string excluded). */
  route(path: string, handler: FixtureHandler): void;
  close(): Promise<void>;
}

/** Starts a fixture site on 127.0.0.1 and a random free port. Unknown paths answer 404. */
export async function startFixtureSite(routes: Record<string, FixtureHandler> = {}): Promise<FixtureSite> {
  const handlers = new Map(Object.entries(routes));
  const hits: FixtureHit[] = [];
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    hits.push({ method: request.method ?? 'GET', path, headers: request.headers });
    const handler = handlers.get(path);
    if (handler) handler(request, response);
    else response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    hits,
    route: (path, handler) => void handlers.set(path, handler),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections(); // stalled responses must not keep the test process waiting
        server.close(() => resolve());
      }),
  };
}

/** A handler answering an HTML page. */
export function htmlPage(html: string, headers: Record<string, string> = {}): FixtureHandler {
  return (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(html);
  };
}

/** A handler answering a redirect. */
export function redirectTo(location: string, status = 302): FixtureHandler {
  return (_request, response) => {
    response.writeHead(status, { location }).end();
  };
}
