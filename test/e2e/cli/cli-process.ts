// Runs the real `tooldir` binary (node bin/tooldir.js) as a child process in a temp HOME.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
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
  run(
    args: readonly string[],
    options?: { env?: Record<string, string>; input?: string; cwd?: string },
  ): Promise<CliRun>;
  /** Runs on a pseudo-terminal (util-linux `script`) and types `answer` + Enter once `prompt` shows. */
  runOnTerminal(args: readonly string[], prompt: string, answer: string): Promise<CliRun>;
  /** Starts the command and hands back the child, to signal it while it runs; `done` resolves like run(). */
  start(
    args: readonly string[],
    options?: { env?: Record<string, string> },
  ): { child: ChildProcess; output: () => CliRun; done: Promise<CliRun> };
}

/** Whether `script` (util-linux) is there to give the CLI a real terminal. */
export const hasScriptCommand = spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0;

/** A fresh temp HOME whose commands go to `baseUrl` (through TOOLDIR_BASE_URL). */
export async function cliUser(baseUrl: string): Promise<CliUser> {
  const home = await mkdtemp(join(tmpdir(), 'tooldir-e2e-home-'));
  const configHome = join(home, '.config');
  // Only what the CLI needs: no TOOLDIR_* from the developer's shell leaks into a test.
  const env = (extra: Record<string, string> = {}): Record<string, string> => ({
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    XDG_CONFIG_HOME: configHome,
    TOOLDIR_BASE_URL: baseUrl,
    ...extra,
  });
  return {
    home,
    configPath: join(configHome, 'tooldir', 'config.json'),
    run: (args, options = {}) => runBinary(args, env(options.env), options.input, options.cwd),
    runOnTerminal: (args, prompt, answer) => runOnTerminal(args, env(), prompt, answer),
    start: (args, options = {}) => startBinary(args, env(options.env)),
  };
}

function startBinary(args: readonly string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [binPath, ...args], { cwd: repoRoot, env, stdio: ['pipe', 'pipe', 'pipe'] });
  const run: CliRun = { code: null, stdout: '', stderr: '' };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (run.stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (run.stderr += chunk));
  child.stdin.end();
  const done = new Promise<CliRun>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ ...run, code }));
  });
  return { child, output: () => ({ ...run }), done };
}

function runOnTerminal(
  args: readonly string[],
  env: Record<string, string>,
  prompt: string,
  answer: string,
): Promise<CliRun> {
  const quote = (word: string): string => `'${word.replace(/'/g, `'\\''`)}'`;
  const commandLine = [process.execPath, binPath, ...args].map(quote).join(' ');
  return new Promise((resolve, reject) => {
    // -e passes the command's exit code through; the transcript goes to /dev/null, output to our pipe.
    const child = spawn('script', ['-qec', commandLine, '/dev/null'], {
      cwd: repoRoot,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let answered = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (!answered && stdout.includes(prompt)) {
        answered = true;
        child.stdin.write(`${answer}\r`);
      }
    });
    child.stderr.resume();
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr: '' }));
  });
}

function runBinary(
  args: readonly string[],
  env: Record<string, string>,
  input?: string,
  cwd = repoRoot,
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [binPath, ...args], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}
