// Loopback sites for the re-check (docs/health.md "Tests"): one server on 127.0.0.1 serves many `<name>.localhost`
// sites, each in a mode a test switches (up, down, hang, moved, ...). The resolver and fetch it hands out reach only
// that server: any other name or address fails the lookup or fetch and is recorded in `violations`.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CrawlTransport } from '../../src/deps';

export type SiteMode =
  | { kind: 'up'; title?: string; description?: string; image?: string; etag?: string }
  | { kind: 'status'; status: number }
  | { kind: 'hang' }
  | { kind: 'huge' }
  | { kind: 'loop' }
  | { kind: 'redirect'; to: string }
  | { kind: 'dns_gone' };

export interface HealthSites extends CrawlTransport {
  port: number;
  /** `http://<name>.localhost:<port>/` */
  urlOf(name: string): string;
  set(name: string, mode: SiteMode): void;
  robots(name: string, text: string | null): void;
  /** Requests received, per host: path and the headers that matter. */
  hits: Array<{
    host: string;
    path: string;
    userAgent: string;
    ifNoneMatch: string | null;
    ifModifiedSince: string | null;
  }>;
  violations: string[];
  close(): Promise<void>;
}

const LAST_MODIFIED = 'Mon, 02 Nov 2026 10:00:00 GMT';

export async function startHealthSites(): Promise<HealthSites> {
  const modes = new Map<string, SiteMode>();
  const robotsFiles = new Map<string, string>();
  const hits: HealthSites['hits'] = [];
  const violations: string[] = [];
  const open = new Set<ServerResponse>();
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const host = String(request.headers['x-test-host'] ?? '');
    const path = request.url ?? '/';
    hits.push({
      host,
      path,
      userAgent: String(request.headers['user-agent'] ?? ''),
      ifNoneMatch: (request.headers['if-none-match'] as string | undefined) ?? null,
      ifModifiedSince: (request.headers['if-modified-since'] as string | undefined) ?? null,
    });
    if (path === '/robots.txt') {
      const text = robotsFiles.get(host);
      if (text === undefined) return void response.writeHead(404).end();
      return void response.writeHead(200, { 'content-type': 'text/plain' }).end(text);
    }
    const mode = modes.get(host) ?? { kind: 'status', status: 404 };
    switch (mode.kind) {
      case 'up': {
        const etag = mode.etag ?? '"v1"';
        if (request.headers['if-none-match'] === etag) return void response.writeHead(304, { etag }).end();
        const image = mode.image ? `<meta property="og:image" content="${mode.image}">` : '';
        return void response
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8', etag, 'last-modified': LAST_MODIFIED })
          .end(
            `<!doctype html><html><head><title>${mode.title ?? host}</title><meta name="description" content="${mode.description ?? 'A tool'}">${image}</head><body>ok</body></html>`,
          );
      }
      case 'status':
        return void response.writeHead(mode.status, { 'content-type': 'text/plain' }).end('status');
      case 'hang':
        open.add(response);
        return; // never answers; the check's deadline ends it
      case 'huge': {
        response.writeHead(200, { 'content-type': 'text/html' });
        const chunk = Buffer.alloc(1024 * 1024, 'a');
        for (let i = 0; i < 10; i++) response.write(chunk);
        return void response.end();
      }
      case 'loop':
        return void response.writeHead(302, { location: path === '/' ? '/a' : '/' }).end();
      case 'redirect':
        return void response.writeHead(301, { location: mode.to }).end();
      case 'dns_gone':
        return void response.writeHead(500).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  const isOurs = (host: string) => host.endsWith('.localhost') && modes.has(host);
  return {
    port,
    hits,
    violations,
    urlOf: (name) => `http://${name}.localhost:${port}/`,
    set: (name, mode) => void modes.set(`${name}.localhost`, mode),
    robots: (name, text) =>
      void (text === null ? robotsFiles.delete(`${name}.localhost`) : robotsFiles.set(`${name}.localhost`, text)),
    resolver: async (hostname) => {
      if (!isOurs(hostname)) {
        violations.push(`resolve ${hostname}`);
        throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      }
      if (modes.get(hostname)?.kind === 'dns_gone')
        throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      return ['127.0.0.1'];
    },
    fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
      if (!isOurs(url.hostname) || url.port !== String(port)) {
        violations.push(`fetch ${url.href}`);
        throw new Error(`health sites: no fetch of ${url.href}`);
      }
      const headers = new Headers(init?.headers);
      headers.set('x-test-host', url.hostname);
      return fetch(`http://127.0.0.1:${port}${url.pathname}${url.search}`, { ...init, headers });
    }) as typeof fetch,
    // Short enough that a hanging site ends the test quickly, long enough for a redirect loop on a loaded machine.
    timeoutMs: 3000,
    close: async () => {
      for (const response of open) response.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
