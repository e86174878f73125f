// A WebSocket-to-TCP proxy like Neon's: each WebSocket carries one raw PostgreSQL wire connection.
import type { IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import { isLoopbackHost } from './loopback';

function pipeSocket(ws: WebSocket, host: string, port: number): void {
  const tcp = connect({ host, port });
  const pending: Buffer[] = [];
  tcp.once('connect', () => {
    for (const chunk of pending.splice(0)) tcp.write(chunk);
  });
  ws.on('message', (data: Buffer | ArrayBuffer | Buffer[]) => {
    const chunk = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
    if (tcp.connecting) pending.push(chunk);
    else tcp.write(chunk);
  });
  tcp.on('data', (chunk) => ws.send(chunk, { binary: true }));
  tcp.on('close', () => ws.close());
  tcp.on('error', () => ws.close());
  ws.on('close', () => tcp.destroy());
  ws.on('error', () => tcp.destroy());
}

/** Parses `?address=host:port` (port defaults to 5432); only loopback targets are accepted. */
export function parseProxyAddress(requestUrl: string | undefined): { host: string; port: number } | null {
  const address = new URL(requestUrl ?? '/', 'http://stand-in').searchParams.get('address');
  if (!address) return null;
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(address);
  if (!match?.[1]) return null;
  const host = match[1].replace(/^\[|\]$/g, '');
  if (!isLoopbackHost(host)) return null;
  return { host, port: match[2] ? Number(match[2]) : 5432 };
}

/** Creates the upgrade handler for the proxy path (e.g. `/v1`). */
export function createWsProxy(path: string): {
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  close(): void;
} {
  const wss = new WebSocketServer({ noServer: true });
  return {
    handleUpgrade(req, socket, head) {
      const target = new URL(req.url ?? '/', 'http://stand-in').pathname === path ? parseProxyAddress(req.url) : null;
      if (!target) {
        socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => pipeSocket(ws, target.host, target.port));
    },
    close() {
      for (const client of wss.clients) client.terminate();
      wss.close();
    },
  };
}
