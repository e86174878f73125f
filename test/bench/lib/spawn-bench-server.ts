// Starts lib/bench-server-process.ts as a child and waits for its BENCH_READY line.
import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import type { Env } from '../../../src/config';
import type { BenchServerInfo } from './bench-server-process';

export interface SpawnedBenchServer extends BenchServerInfo {
  child: ChildProcess;
  stderr(): string;
  stop(): Promise<void>;
}

const root = resolve(import.meta.dirname, '../../..');

/** `nodeArgs`: extra Node flags for the server process (BENCH_PROFILE passes --cpu-prof, which NODE_OPTIONS refuses). */
export async function spawnBenchServer(
  env: Env,
  timeoutMs = 60_000,
  nodeArgs: string[] = [],
): Promise<SpawnedBenchServer> {
  const child = spawn(
    process.execPath,
    [...nodeArgs, '--import', 'tsx', resolve(import.meta.dirname, 'bench-server-process.ts')],
    {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-20_000);
  });
  const info = await new Promise<BenchServerInfo>((done, fail) => {
    let out = '';
    const timer = setTimeout(() => fail(new Error(`bench server not ready in ${timeoutMs} ms:\n${stderr}`)), timeoutMs);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.startsWith('BENCH_READY '));
      if (line) {
        clearTimeout(timer);
        done(JSON.parse(line.slice('BENCH_READY '.length)) as BenchServerInfo);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`bench server exited (${code}):\n${stderr}`));
    });
  });
  child.stdout?.resume();
  return {
    ...info,
    child,
    stderr: () => stderr,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.once('exit', () => {
          clearTimeout(force);
          done();
        });
        child.kill('SIGTERM');
      }),
  };
}
