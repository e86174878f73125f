// How the local server stops: SIGINT (Ctrl-C), SIGTERM or SIGHUP close it (the last requests finish, the database
// closes); a second signal, or a close that hangs, exits at once. Started by an npm script, it also stops when the
// process that started it is gone: `kill <npm's pid>` ends npm and its shell without passing the signal on, which
// used to leave the server running, orphaned, on its port.

/** The grace a close gets before the process exits anyway. */
export const CLOSE_GRACE_MS = 5_000;
const PARENT_CHECK_MS = 250;

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
    setInterval(() => {
      if (process.ppid !== parent) stop();
    }, PARENT_CHECK_MS).unref();
  }
}
