// Runs the real `tooldir` binary (node bin/tooldir.js) as a child process in a temp HOME.
import { spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const binPath = join(repoRoot, 'bin', 'tooldir.js');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A user of the CLI: its own temp HOME and XDG_CONFIG_HOME, talking to one server. */
export interface CliUser {
  home: string;
  configPath: string;
  run(args: readonly string[], options?: { env?: Record<string, string>; input?: string }): Promise<CliRun>;
}

/** A fresh temp HOME whose commands go to `baseUrl` (through TOOLDIR_BASE_URL). */
export async function cliUser(baseUrl: string): Promise<CliUser> {
  const home = await mkdtemp(join(tmpdir(), 'tooldir-e2e-home-'));
  const configHome = join(home, '.config');
  return {
    home,
    configPath: join(configHome, 'tooldir', 'config.json'),
    run: (args, options = {}) =>
      runBinary(args, {
        // Only what the CLI needs: no TOOLDIR_* from the developer's shell leaks into a test.
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: home,
        XDG_CONFIG_HOME: configHome,
        TOOLDIR_BASE_URL: baseUrl,
        ...options.env,
      }, options.input),
  };
}

function runBinary(args: readonly string[], env: Record<string, string>, input?: string): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [binPath, ...args], { cwd: repoRoot, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}
