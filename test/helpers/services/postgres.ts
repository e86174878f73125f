// A throwaway PostgreSQL server on loopback for e2e tests: a fresh cluster in a temp dir, random port, trust auth.
import { type ChildProcess, spawn } from 'node:child_process';
import { chownSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { trackChild, trackDir } from './child-cleanup';
import { findBinary, postgresBinDirs } from './find-binary';
import { findFreePort } from './free-port';
import { copyTemplate, postgresTemplate } from './postgres-template';
import { type RunAs, unprivilegedAccount } from './run-as';

/** Paths of the PostgreSQL server binaries. */
export interface PostgresBinaries {
  initdb: string;
  postgres: string;
}

/** A running throwaway server. `stop`/`start`/`restart` keep the data (fault tests); `close` removes everything. */
export interface PostgresServer {
  /** postgres://postgres@127.0.0.1:PORT/DATABASE (no password: trust auth on loopback). */
  connectionString: string;
  host: '127.0.0.1';
  port: number;
  database: string;
  user: 'postgres';
  /** Fast shutdown; the data dir and port are kept so `start()` brings the same database back. */
  stop(): Promise<void>;
  start(): Promise<void>;
  restart(): Promise<void>;
  /** Stops the server and deletes its temp dir. Safe to call twice. */
  close(): Promise<void>;
  /**
   * Everything the server wrote to stderr since it started (its own log), when started with `captureLog`.
   * With `settings: { log_statement: 'all' }` this is the server's record of every statement it ran.
   */
  serverLog(): string;
}

export interface StartPostgresOptions {
  database?: string;
  /** Extra server settings, passed as `-c name=value` (e.g. `{ log_statement: 'all' }`). */
  settings?: Record<string, string>;
  /** Keep the server's stderr for `serverLog()` (otherwise it is drained and dropped). */
  captureLog?: boolean;
}

/** Finds initdb and postgres on PATH or under /usr/lib/postgresql/<version>/bin; null when not installed. */
export function findPostgresBinaries(): PostgresBinaries | null {
  const dirs = postgresBinDirs();
  const initdb = findBinary('initdb', dirs);
  const postgres = findBinary('postgres', dirs);
  return initdb && postgres ? { initdb, postgres } : null;
}

const READY_LINE = 'database system is ready to accept connections';

function spawnPostgres(
  bin: string,
  dataDir: string,
  port: number,
  account: RunAs | undefined,
  settings: Record<string, string> = {},
): ChildProcess {
  const args = ['-D', dataDir, '-p', String(port), '-k', join(dataDir, '..'), '-c', 'listen_addresses=127.0.0.1'];
  // Durability is worthless for a throwaway test database; these make it several times faster.
  args.push('-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off');
  args.push('-c', 'max_connections=300', '-c', 'shared_buffers=64MB');
  for (const [name, value] of Object.entries(settings)) args.push('-c', `${name}=${value}`);
  const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'], uid: account?.uid, gid: account?.gid });
  trackChild(child);
  return child;
}

function waitUntilReady(child: ChildProcess, timeoutMs = 30_000): Promise<void> {
  return new Promise((resolve, reject) => {
    let log = '';
    const timer = setTimeout(() => fail(new Error(`PostgreSQL did not start in ${timeoutMs} ms:\n${log}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes(READY_LINE)) done();
    };
    const onExit = (code: number | null) => fail(new Error(`PostgreSQL exited (${code}) before it was ready:\n${log}`));
    function cleanup() {
      clearTimeout(timer);
      child.stderr?.off('data', onData);
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
      // Keep draining the pipes so the server never blocks on a full stderr buffer.
      child.stderr?.resume();
      child.stdout?.resume();
    }
    function done() {
      cleanup();
      resolve();
    }
    function fail(error: Error) {
      cleanup();
      reject(error);
    }
    child.stderr?.on('data', onData);
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGINT'); // "fast" shutdown: aborts open transactions, closes client connections
  });
}

async function createDatabase(port: number, database: string): Promise<void> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${database.replaceAll('"', '""')}"`);
  } finally {
    await client.end();
  }
}

/**
 * Starts a fresh PostgreSQL server (initdb in a temp dir, trust auth, loopback only, random port) and
 * creates `database`. Works as root (runs the server as the `postgres` account) and as a normal user.
 * @example
 * const server = await startPostgres();
 * afterAll(() => server.close());
 */
export async function startPostgres(options: StartPostgresOptions = {}): Promise<PostgresServer> {
  const binaries = findPostgresBinaries();
  if (!binaries) throw new Error('PostgreSQL server binaries not found (apt-get install postgresql)');
  const database = options.database ?? 'tooldir_test';
  const account = unprivilegedAccount();
  const root = mkdtempSync(join(tmpdir(), 'tooldir-pg-'));
  const removeDir = trackDir(root);
  if (account) chownSync(root, account.uid, account.gid);
  const dataDir = join(root, 'data');
  let child: ChildProcess | undefined;
  let log = '';
  // Listens before the ready wait drains the pipe, so no line is lost.
  const spawnCapturing = (port: number) => {
    const spawned = spawnPostgres(binaries.postgres, dataDir, port, account, options.settings);
    if (options.captureLog) spawned.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
    return spawned;
  };
  try {
    await copyTemplate(await postgresTemplate(binaries.initdb, account), dataDir);
    let port = 0;
    for (let attempt = 1; ; attempt++) {
      port = await findFreePort();
      child = spawnCapturing(port);
      try {
        await waitUntilReady(child);
        break;
      } catch (error) {
        await stopChild(child);
        if (attempt >= 3) throw error; // a lost race for the port is retried, anything persistent is not
      }
    }
    await createDatabase(port, database);
    let closed = false;
    const server: PostgresServer = {
      connectionString: `postgres://postgres@127.0.0.1:${port}/${database}`,
      host: '127.0.0.1',
      port,
      database,
      user: 'postgres',
      async stop() {
        if (child) await stopChild(child);
      },
      async start() {
        if (closed) throw new Error('PostgreSQL server was closed');
        if (child && child.exitCode === null && child.signalCode === null) return;
        child = spawnCapturing(port);
        await waitUntilReady(child);
      },
      async restart() {
        await server.stop();
        await server.start();
      },
      async close() {
        if (closed) return;
        closed = true;
        await server.stop();
        removeDir();
      },
      serverLog: () => log,
    };
    return server;
  } catch (error) {
    if (child) await stopChild(child);
    removeDir();
    throw error;
  }
}
