// How the local server stops: SIGINT (Ctrl-C), SIGTERM or SIGHUP close it (the last requests finish, the database
// closes); a second signal, or a close that hangs, exits at once. Started by an npm script, it also stops when npm
// is gone: `kill <npm's pid>` ends npm and its shell without passing the signal on, and a killed npm leaves its
// shell waiting; either used to leave the server running, orphaned, on its port.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** The grace a close gets before the process exits anyway. */
export const CLOSE_GRACE_MS = 5_000;
const LAUNCHER_CHECK_MS = 250;
/** The shells npm runs a script through (`script-shell`): sh -c on Unix, cmd /d /s /c on Windows. */
const SCRIPT_SHELL = /^(sh|bash|dash|zsh|cmd(\.exe)?)$/i;

/** A process's parent and command name: /proc on Linux, ps elsewhere; undefined when neither tells. */
function processInfo(pid: number): { ppid: number; name: string; zombie?: boolean } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8'); // "pid (comm) state ppid …"; comm may hold spaces
    const close = stat.lastIndexOf(')');
    const [state, ppid] = stat.slice(close + 2).split(' ');
    return { name: stat.slice(stat.indexOf('(') + 1, close), ppid: Number(ppid), zombie: state === 'Z' };
  } catch {
    try {
      const [ppid, ...name] = execFileSync('ps', ['-o', 'ppid=,comm=', '-p', String(pid)], { encoding: 'utf8' })
        .trim()
        .split(/\s+/);
      return { ppid: Number(ppid), name: name.join(' ').split('/').at(-1) ?? '' };
    } catch {
      return undefined;
    }
  }
}

/** npm's own pid: the parent, or the parent's parent when npm's shell did not exec the command. */
export function npmPid(): number {
  const parent = processInfo(process.ppid);
  return parent && SCRIPT_SHELL.test(parent.name) && parent.ppid > 1 ? parent.ppid : process.ppid;
}

/** A killed npm that its own parent has not reaped yet is a zombie: it answers signal 0 but runs nothing. */
const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return processInfo(pid)?.zombie !== true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // alive, only not ours to signal
  }
};

export function stopOnSignals(close: () => Promise<void>, options: { underNpm?: boolean } = {}): void {
  let stopping = false;
  const stop = () => {
    if (stopping) process.exit(130); // a second Ctrl-C: no more waiting
    stopping = true;
    setTimeout(() => process.exit(1), CLOSE_GRACE_MS).unref();
    close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, stop);
  if (options.underNpm ?? Boolean(process.env.npm_lifecycle_event)) {
    const parent = process.ppid;
    const npm = npmPid();
    setInterval(() => {
      if (process.ppid !== parent || !isAlive(npm)) stop();
    }, LAUNCHER_CHECK_MS).unref();
  }
}
