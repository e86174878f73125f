// A throwaway redis-server on loopback for e2e tests: random port, no persistence, stoppable for fault tests.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { trackChild, trackDir } from './child-cleanup';
import { findBinary } from './find-binary';
import { findFreePort } from './free-port';

/** A running redis-server. `stop`/`start` keep the port (data is not persisted); `close` removes everything. */
export interface RedisServer {
  /** redis://127.0.0.1:PORT */
  url: string;
  host: '127.0.0.1';
  port: number;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/** Path of redis-server (Debian package redis-server), or null when not installed. */
export function findRedisServer(): string | null {
  return findBinary('redis-server', ['/usr/bin', '/usr/sbin', '/usr/local/bin']);
}

function spawnRedis(bin: string, dir: string, port: number): ChildProcess {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  args.push('--dir', dir, '--daemonize', 'no', '--protected-mode', 'yes', '--loglevel', 'warning');
  const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  trackChild(child);
  child.stdout?.resume();
  child.stderr?.resume();
  return child;
}

async function waitUntilReady(child: ChildProcess, port: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`);
    const pong = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ host: '127.0.0.1', port });
      socket.once('connect', () => socket.write('PING\r\n'));
      socket.once('data', (data) => {
        socket.destroy();
        resolve(data.toString().startsWith('+PONG'));
      });
      socket.once('error', () => resolve(false));
    });
    if (pong) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`redis-server did not answer PING within ${timeoutMs} ms`);
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL'); // nothing to save: persistence is off
  });
}

/**
 * Starts redis-server on 127.0.0.1 on a free port, without persistence.
 * @example
 * const redis = await startRedis();
 * afterAll(() => redis.close());
 */
export async function startRedis(): Promise<RedisServer> {
  const bin = findRedisServer();
  if (!bin) throw new Error('redis-server not found (apt-get install redis-server)');
  const dir = mkdtempSync(join(tmpdir(), 'tooldir-redis-'));
  const removeDir = trackDir(dir);
  let child: ChildProcess | undefined;
  try {
    let port = 0;
    for (let attempt = 1; ; attempt++) {
      port = await findFreePort();
      child = spawnRedis(bin, dir, port);
      try {
        await waitUntilReady(child, port);
        break;
      } catch (error) {
        await stopChild(child);
        if (attempt >= 3) throw error;
      }
    }
    let closed = false;
    const server: RedisServer = {
      url: `redis://127.0.0.1:${port}`,
      host: '127.0.0.1',
      port,
      async stop() {
        if (child) await stopChild(child);
      },
      async start() {
        if (closed) throw new Error('redis server was closed');
        if (child && child.exitCode === null && child.signalCode === null) return;
        child = spawnRedis(bin, dir, port);
        await waitUntilReady(child, port);
      },
      async close() {
        if (closed) return;
        closed = true;
        await server.stop();
        removeDir();
      },
    };
    return server;
  } catch (error) {
    if (child) await stopChild(child);
    removeDir();
    throw error;
  }
}
