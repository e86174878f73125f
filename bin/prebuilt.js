// What `npm start` and the `tooldir` command share: a prebuilt ESM bundle of TypeScript sources, made with esbuild,
// and whether it is older than any of its sources. Loading one JavaScript file is much faster than transforming a few
// hundred TypeScript modules through tsx at every start (docs/bench.md "Cold start"; the CLI: docs/cli.md).
//
// A bundle lives two folders below the root, like src/<folder>/*.ts, so paths taken relative to import.meta.url
// (package.json, the drizzle/ migrations folder) resolve to the same place from the bundle and from the sources.
import { existsSync, mkdirSync, readdirSync, renameSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));

function newestMtime(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs; // a deleted file changes its folder's mtime
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** True when `bundle` is missing or older than any of `sources` (paths from the root, folders walked). */
export function isStale(bundle, sources) {
  if (!existsSync(bundle)) return true;
  const built = statSync(bundle).mtimeMs;
  return sources.some((path) => newestMtime(join(root, path)) > built);
}

/**
 * Bundles `entry` (a path from the root) for Node into `outfile`; written to a temp file and renamed, so a
 * concurrent start never loads half a file.
 */
export async function buildBundle({ entry, outfile, external = [] }) {
  const { build, stop } = await import('esbuild');
  mkdirSync(dirname(outfile), { recursive: true });
  const temp = `${outfile}.${process.pid}.tmp`;
  try {
    await build({
      entryPoints: [join(root, entry)],
      outfile: temp,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      tsconfig: join(root, 'tsconfig.json'),
      external,
      // CommonJS dependencies bundled into ESM still call require() for Node built-ins.
      banner: {
        js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
      },
      legalComments: 'none',
      logLevel: 'warning',
    });
  } finally {
    // esbuild's JS API keeps a service child process; the server that starts next must not carry it along
    // (after a kill it outlived the server).
    await stop();
  }
  renameSync(temp, outfile);
  return outfile;
}
