// initdb costs ~1.5 s; a cluster initialised once per machine and copied per server makes each start cheap.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { RunAs } from './run-as';

const execFileAsync = promisify(execFile);
const MARKER = 'tooldir-template-complete';

/** Runs initdb with the settings every throwaway server shares (trust auth, superuser `postgres`, UTF8, C locale). */
export async function runInitdb(initdb: string, dataDir: string, account: RunAs | undefined): Promise<void> {
  await execFileAsync(
    initdb,
    ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C'],
    {
      uid: account?.uid,
      gid: account?.gid,
      env: { ...process.env, LC_ALL: 'C' },
    },
  );
}

/**
 * Returns a pristine data dir made by initdb, shared by every test process on this machine (kept in the temp
 * dir as a cache, keyed by the initdb binary and its mtime so an upgraded PostgreSQL gets a fresh one).
 */
export async function postgresTemplate(initdb: string, account: RunAs | undefined): Promise<string> {
  const uid = account?.uid ?? process.getuid?.() ?? 0;
  const key = createHash('sha1')
    .update(`${initdb}:${statSync(initdb).mtimeMs}:${uid}`)
    .digest('hex')
    .slice(0, 12);
  const template = join(tmpdir(), `tooldir-pg-template-${key}`);
  if (existsSync(join(template, MARKER))) return template;
  const staging = mkdtempSync(join(tmpdir(), 'tooldir-pg-staging-'));
  try {
    if (account) chownSync(staging, account.uid, account.gid);
    const dataDir = join(staging, 'data');
    await runInitdb(initdb, dataDir, account);
    writeFileSync(join(dataDir, MARKER), '');
    try {
      renameSync(dataDir, template); // atomic: concurrent test processes race, one wins, all use it
    } catch {
      if (!existsSync(join(template, MARKER)))
        throw new Error(`could not publish the PostgreSQL template at ${template}`);
    }
    return template;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** Copies the template into `dataDir`, keeping owner and the 0700 mode PostgreSQL insists on. */
export async function copyTemplate(template: string, dataDir: string): Promise<void> {
  await execFileAsync('cp', ['-a', template, dataDir]);
  rmSync(join(dataDir, MARKER), { force: true });
}
