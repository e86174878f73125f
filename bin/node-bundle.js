// The Node server prebuilt into one ESM file (dist/node/server.mjs) with esbuild, so that `npm start` loads
// one JavaScript file instead of transforming ~300 TypeScript modules through tsx at every start (about
// 1.5 s of a cold start on a 2 vCPU box; see docs/bench.md). `npm start` rebuilds it when any source is newer,
// so an edited checkout never runs stale code; `npm run build:node` builds it explicitly.
//
// The bundle lives two folders below the root, like src/db/*.ts, so paths taken relative to import.meta.url
// (the drizzle/ migrations folder) resolve to the same place from the bundle and from the sources.
import { existsSync, mkdirSync, readdirSync, renameSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
export const bundlePath = join(root, 'dist', 'node', 'server.mjs');

// Whatever can change the bundle's content: the sources, the dependency set and this build recipe.
const SOURCE_DIRS = ['src', 'functions'];
const SOURCE_FILES = ['package.json', 'package-lock.json', 'tsconfig.json', 'bin/node-bundle.js'];

function newestMtime(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs; // a deleted file changes its folder's mtime
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** True when the bundle (by default the one `npm start` loads) is missing or older than any of its sources. */
export function isNodeBundleStale(bundle = bundlePath) {
  if (!existsSync(bundle)) return true;
  const built = statSync(bundle).mtimeMs;
  return [...SOURCE_DIRS, ...SOURCE_FILES].some((path) => newestMtime(join(root, path)) > built);
}

/** Builds the bundle; written to a temp file and renamed, so a concurrent start never loads half a file. */
export async function buildNodeBundle() {
  const { build, stop } = await import('esbuild');
  mkdirSync(dirname(bundlePath), { recursive: true });
  const temp = `${bundlePath}.${process.pid}.tmp`;
  try {
    await build({
      entryPoints: [join(root, 'functions', 'node.ts')],
      outfile: temp,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      tsconfig: join(root, 'tsconfig.json'),
      // PGlite loads its .wasm and data files from its own package folder; pg-native is pg's optional addon.
      external: ['@electric-sql/pglite', 'pg-native'],
      // CommonJS dependencies bundled into ESM still call require() for Node built-ins.
      banner: {
        js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
      },
      keepNames: true,
      legalComments: 'none',
      logLevel: 'warning',
    });
  } finally {
    // esbuild's JS API keeps a service child process; the server that starts next must not carry it along
    // (after a kill it outlived the server).
    await stop();
  }
  renameSync(temp, bundlePath);
  return bundlePath;
}

/** The bundle's path, rebuilt first if stale. */
export async function ensureNodeBundle() {
  if (isNodeBundleStale()) await buildNodeBundle();
  return bundlePath;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const started = performance.now();
  await buildNodeBundle();
  console.log(`built ${bundlePath} in ${Math.round(performance.now() - started)} ms`);
}
