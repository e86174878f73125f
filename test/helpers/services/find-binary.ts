// Locates server binaries from Debian packages (PATH first, then the versioned PostgreSQL dirs).
import { accessSync, constants, readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Returns the absolute path of `name` on PATH or in one of `extraDirs`, or null when it is not installed. */
export function findBinary(name: string, extraDirs: readonly string[] = []): string | null {
  const pathDirs = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  for (const dir of [...pathDirs, ...extraDirs]) {
    const candidate = join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return null;
}

/** The bin dirs of every installed Debian PostgreSQL version, newest first. */
export function postgresBinDirs(): string[] {
  const root = '/usr/lib/postgresql';
  try {
    return readdirSync(root)
      .filter((version) => /^\d+$/.test(version))
      .sort((a, b) => Number(b) - Number(a))
      .map((version) => join(root, version, 'bin'));
  } catch {
    return [];
  }
}
