// Starts bare-floor-server.ts as its own process (like the app's bench server) and waits for its FLOOR_READY line.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { benchPoolMax } from './bench-database';

export interface BareFloor {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** The bare node:http + pg floor for `accountId`'s reads on `databaseUrl`. */
export async function startBareFloor(
  databaseUrl: string,
  accountId: string,
  nodeArgs: string[] = [],
  timeoutMs = 30_000,
): Promise<BareFloor> {
  const child = spawn(
    process.execPath,
    [...nodeArgs, '--import', 'tsx', resolve(import.meta.dirname, 'bare-floor-server.ts')],
    {
      env: {
        ...process.env,
        FLOOR_DATABASE_URL: databaseUrl,
        FLOOR_ACCOUNT_ID: accountId,
        FLOOR_POOL_MAX: String(benchPoolMax()),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-10_000)));
  const url = await new Promise<string>((done, fail) => {
    let out = '';
    const timer = setTimeout(() => fail(new Error(`bare floor not ready in ${timeoutMs} ms:\n${stderr}`)), timeoutMs);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.startsWith('FLOOR_READY '));
      if (!line) return;
      clearTimeout(timer);
      done((JSON.parse(line.slice('FLOOR_READY '.length)) as { url: string }).url);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`bare floor exited (${code}):\n${stderr}`));
    });
  });
  child.stdout?.resume();
  return {
    url,
    pid: child.pid!,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}
