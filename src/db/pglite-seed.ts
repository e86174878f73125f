// The seed of a new PGlite database: a cluster that initdb made and the baseline filled, kept as one tarball in
// dist/pglite-seed/ (beside the server bundle, not in git). A new PGlite data dir is initdb'd inside WebAssembly,
// which costs about 8 s of CPU on this project's 2-core machines, four fifths of a first start; loading the seed
// costs about 1.5 s (docs/bench.md "Cold start"). `npm ci` prepares it (bin/server/prepare.js); a first start that finds
// none makes the database the slow way and leaves the seed for the next. Keyed by the PGlite version and the
// baseline's text, so an upgrade or a new baseline never loads an old cluster; migrations after the baseline
// apply on top as on any database. Node only.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import { migrationsFolder, usableBaseline } from './baseline';

/** Beside the server bundle (dist/ is built, never committed). */
export const defaultSeedFolder = fileURLToPath(new URL('../../dist/pglite-seed', import.meta.url));

/** The installed PGlite's version: a seed is a cluster of exactly that PostgreSQL build. */
function pgliteVersion(): string {
  let dir = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

/** Where the seed for this PGlite, these extensions and this baseline lives; undefined without a usable baseline. */
export function seedPath(
  extensions: readonly string[],
  seedFolder = defaultSeedFolder,
  folder = migrationsFolder,
): string | undefined {
  const baselinePath = join(folder, 'baseline', 'baseline.sql');
  if (!usableBaseline(folder)) return undefined;
  const key = createHash('sha256')
    .update(`${pgliteVersion()}\n${extensions.join(',')}\n`)
    .update(readFileSync(baselinePath))
    .digest('hex')
    .slice(0, 16);
  return join(seedFolder, `${key}.tar.gz`);
}

/** The seed's bytes, or undefined when there is none for this key. */
export function readSeed(path: string | undefined): Blob | undefined {
  if (!path || !existsSync(path)) return undefined;
  return new Blob([readFileSync(path)]);
}

/**
 * Keeps `client`'s cluster as the seed; call right after the baseline, before any later migration or row. Best
 * effort: a seed that cannot be written only means the next new database is made the slow way too.
 */
export async function saveSeed(client: PGlite, path: string | undefined): Promise<boolean> {
  if (!path) return false;
  const temp = `${path}.${process.pid}.tmp`;
  try {
    await client.query('CHECKPOINT');
    const tarball = await client.dumpDataDir('gzip');
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(temp, Buffer.from(await tarball.arrayBuffer()));
    renameSync(temp, path); // atomic: a concurrent start reads a whole seed or none
    return true;
  } catch {
    rmSync(temp, { force: true });
    return false;
  }
}
