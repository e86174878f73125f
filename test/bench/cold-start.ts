// Cold start: `npm start` (a child process, local mode: PGlite in DATA_DIR) until the first 200, on a fresh
// data dir (creates and migrates the database) and again on the same, existing one. Target: ≤ 1.5 s reopening.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ensureNodeBundle } from '../../bin/node-bundle.js';
import { findFreePort } from '../helpers/services/free-port';
import { type BenchReport, runStandalone } from './lib/results';

const root = resolve(import.meta.dirname, '../..');
const TARGET_REOPEN_MS = 1500;
const REPEATS = Number(process.env.BENCH_COLD_REPEATS ?? 3);

/** Spawns the command, polls GET /llms.txt every 10 ms, returns ms from spawn to the first 200. */
async function timeToFirst200(command: string[], dataDir: string): Promise<number> {
  const port = await findFreePort();
  const started = performance.now();
  const child = spawn(command[0]!, command.slice(1), {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'error',
      DATABASE_URL: '',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true, // its own process group: npm → tsx → node are stopped together
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}): ${stderr}`);
      if (performance.now() - started > 60_000) throw new Error(`no 200 within 60 s: ${stderr}`);
      const ok = await fetch(`http://127.0.0.1:${port}/llms.txt`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) return performance.now() - started;
      await new Promise((r) => setTimeout(r, 10));
    }
  } finally {
    await new Promise<void>((done) => {
      if (child.exitCode !== null) return done();
      child.once('exit', () => done());
      process.kill(-child.pid!, 'SIGTERM');
    });
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

export async function benchColdStart(): Promise<BenchReport> {
  const commands = [
    { label: 'npm start', command: ['npm', 'start', '--silent'] },
    { label: 'node bin/start.js', command: [process.execPath, 'bin/start.js'] },
    { label: 'npm run start:source (tsx)', command: ['npm', 'run', 'start:source', '--silent'] },
  ];
  await ensureNodeBundle(); // a rebuild after an edit is a one-off, not part of every start
  const rows: BenchReport['rows'] = [];
  const targets: BenchReport['targets'] = [];
  const data: Record<string, { fresh: number[]; existing: number[] }> = {};
  for (const { label, command } of commands) {
    const fresh: number[] = [];
    const existing: number[] = [];
    for (let i = 0; i < REPEATS; i++) {
      const dir = mkdtempSync(join(tmpdir(), 'tooldir-cold-'));
      try {
        fresh.push(await timeToFirst200(command, dir));
        existing.push(await timeToFirst200(command, dir));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
    data[label] = { fresh, existing };
    rows.push({
      command: label,
      'fresh DATA_DIR ms (median)': Math.round(median(fresh)),
      'existing DATA_DIR ms (median)': Math.round(median(existing)),
    });
    if (label === 'npm start') {
      targets.push({
        what: `npm start reopening ≤ ${TARGET_REOPEN_MS} ms`,
        ok: median(existing) <= TARGET_REOPEN_MS,
        detail: `${Math.round(median(existing))} ms (runs: ${existing.map(Math.round).join(', ')})`,
      });
    }
  }
  return {
    name: 'cold-start',
    rows,
    targets,
    notes: [
      `median of ${REPEATS} runs each; time from spawn to the first 200 of GET /llms.txt (polled every 10 ms)`,
      'npm start = npm + node bin/start.js (the prebuilt bundle); the second row shows what npm itself costs, the third the TypeScript sources through tsx',
    ],
    data,
  };
}

await runStandalone(import.meta.url, benchColdStart);
