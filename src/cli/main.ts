// Entry of the `tooldir` command (bin/cli/tooldir.js loads this through tsx): wires the real world in.
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CliContext } from './context';
import { createOpener } from './opener';
import { runCli } from './program';
import { ExitCode } from './exit-codes';
import { interruptedLine } from './output';

const defaultPollIntervalMs = 2_000;

/** The real process as a CliContext. */
export function processContext(): CliContext {
  const env = process.env;
  return {
    env,
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    fetch: (input, init) => fetch(input, init),
    openUrl: createOpener(env),
    sleep: (ms) => sleep(ms),
    now: () => new Date(),
    pollIntervalMs: pollInterval(env.TOOLDIR_POLL_INTERVAL_MS),
    version: packageVersion(),
  };
}

/** TOOLDIR_POLL_INTERVAL_MS tunes `submit --wait` (tests use a short one); invalid values fall back. */
function pollInterval(value: string | undefined): number {
  const parsed = Number(value);
  return value && Number.isFinite(parsed) && parsed >= 10 ? parsed : defaultPollIntervalMs;
}

function packageVersion(): string {
  const text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
  const parsed: unknown = JSON.parse(text);
  const version = typeof parsed === 'object' && parsed !== null ? (parsed as { version?: unknown }).version : undefined;
  return typeof version === 'string' ? version : '0.0.0';
}

// `tooldir list | head` closes the pipe early: that is not an error worth a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}
// Ctrl-C (while waiting, say): one line instead of a half-drawn spinner, then 130 like any command ended by SIGINT.
process.once('SIGINT', () => {
  process.stderr.write(`${interruptedLine(process.stderr.isTTY === true)}\n`);
  process.exit(ExitCode.interrupted);
});

process.exitCode = await runCli(process.argv.slice(2), processContext());
