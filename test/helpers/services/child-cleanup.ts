// Last-resort cleanup: kills server processes and removes temp dirs if a test process exits without teardown.
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';

const children = new Set<ChildProcess>();
const dirs = new Set<string>();
let hooked = false;

function cleanupNow(): void {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}

function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.once('exit', cleanupNow);
}

/** Registers a server process to be killed if the test process exits first. */
export function trackChild(child: ChildProcess): void {
  hookExit();
  children.add(child);
  child.once('exit', () => children.delete(child));
}

/** Registers a temp dir to be removed if the test process exits first. */
export function trackDir(dir: string): () => void {
  hookExit();
  dirs.add(dir);
  return () => {
    dirs.delete(dir);
    rmSync(dir, { recursive: true, force: true });
  };
}
