// Servers that refuse to run as root (PostgreSQL) are spawned under an unprivileged account.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** uid/gid to pass to spawn(), or undefined when we are not root and can run servers ourselves. */
export interface RunAs {
  uid: number;
  gid: number;
  user: string;
}

function lookupUser(user: string): RunAs | undefined {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith(`${user}:`));
  if (!line) return undefined;
  const [, , uid, gid] = line.split(':');
  return { user, uid: Number(uid), gid: Number(gid) };
}

/**
 * When running as root, returns the `postgres` account (created by the Debian package), or creates a
 * system account `tooldir-pg` if there is none. Returns undefined for non-root callers.
 */
export function unprivilegedAccount(): RunAs | undefined {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  const existing = lookupUser('postgres') ?? lookupUser('tooldir-pg');
  if (existing) return existing;
  execFileSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', 'tooldir-pg'], {
    stdio: 'ignore',
  });
  const created = lookupUser('tooldir-pg');
  if (!created) throw new Error('could not create an unprivileged account for PostgreSQL');
  return created;
}
