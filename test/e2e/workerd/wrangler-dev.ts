// Runs the Worker bundle in workerd through `wrangler dev --local` on a loopback port, with the variables
// given (written to a temp env file), and waits until it answers.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { trackChild, trackDir } from '../../helpers/services/child-cleanup';
import { findFreePort } from '../../helpers/services/free-port';

export interface WranglerDev {
  url: string;
  output(): string;
  close(): Promise<void>;
}

const root = resolve(import.meta.dirname, '../../..');

/**
 * `wrangler dev --local` with `vars`; resolves once GET /llms.txt answers (the isolate has started).
 * SITE_ORIGIN defaults to the dev server's own URL: outside local mode the Worker requires it (src/origin.ts).
 */
export async function startWranglerDev(vars: Record<string, string>, timeoutMs = 120_000): Promise<WranglerDev> {
  const dir = mkdtempSync(join(tmpdir(), 'tooldir-workerd-'));
  const removeDir = trackDir(dir);
  const envFile = join(dir, 'vars.env');
  const port = await findFreePort();
  const all = { SITE_ORIGIN: `http://127.0.0.1:${port}`, ...vars };
  writeFileSync(
    envFile,
    Object.entries(all)
      .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
      .join('\n'),
  );
  const inspector = await findFreePort();
  const args = [
    'wrangler',
    'dev',
    '--local',
    '--ip',
    '127.0.0.1',
    '--port',
    String(port),
    '--inspector-port',
    String(inspector),
  ];
  args.push(
    '--env-file',
    envFile,
    '--persist-to',
    join(dir, 'state'),
    '--show-interactive-dev-session=false',
    '--log-level',
    'warn',
  );
  const child: ChildProcess = spawn('npx', args, {
    cwd: root,
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', NO_UPDATE_NOTIFIER: '1', CI: '1', FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // npx → wrangler → workerd in one process group, stopped together
  });
  trackChild(child);
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-50_000)));
  child.stderr?.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-50_000)));
  const url = `http://127.0.0.1:${port}`;
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      await new Promise<void>((done) => {
        const force = setTimeout(() => {
          try {
            process.kill(-child.pid!, 'SIGKILL');
          } catch {
            // already gone
          }
        }, 5000);
        child.once('exit', () => {
          clearTimeout(force);
          done();
        });
        process.kill(-child.pid!, 'SIGTERM');
      });
    }
    removeDir();
  };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      await close();
      throw new Error(`wrangler dev exited (${child.exitCode}):\n${output}`);
    }
    const ok = await fetch(`${url}/llms.txt`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return { url, output: () => output, close };
    await new Promise((r) => setTimeout(r, 250));
  }
  await close();
  throw new Error(`wrangler dev did not answer within ${timeoutMs} ms:\n${output}`);
}
