import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A free loopback port (the OS picks one; we release it right away). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface ChildServer {
  url: string;
  process: ChildProcess;
  output: () => string;
  adminToken: () => string;
  /** SIGTERM (graceful) or SIGKILL (crash). */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Starts what `npm start` runs (bin/start.js: the prebuilt server bundle) as a child process and waits for its
 * banner. `viaNpm` runs the `npm start` command itself, in its own process group so a signal reaches npm and
 * the server together.
 */
export async function startChildServer(options: {
  dataDir: string;
  env?: Record<string, string>;
  timeoutMs?: number;
  viaNpm?: boolean;
}): Promise<ChildServer> {
  const port = await freePort();
  const [command, args] = options.viaNpm ? ['npm', ['start', '--silent']] : [process.execPath, ['bin/start.js']];
  const child = spawn(command, args, {
    detached: options.viaNpm,
    cwd: join(import.meta.dirname, '../..'),
    env: { ...process.env, PORT: String(port), DATA_DIR: options.dataDir, LOG_LEVEL: 'warn', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const url = `http://127.0.0.1:${port}`;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`server did not start in time:\n${out}`)),
      options.timeoutMs ?? 60_000,
    );
    const check = () => {
      if (out.includes(`running at ${url}`)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${out}`));
    });
  });
  return {
    url,
    process: child,
    output: () => out,
    adminToken: () => readFileSync(join(options.dataDir, 'admin-token'), 'utf8').trim(),
    stop: (signal = 'SIGTERM') =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        if (options.viaNpm) process.kill(-child.pid!, signal);
        else child.kill(signal);
      }),
  };
}
