// The Node server prebuilt into one ESM file (dist/node/server.mjs) with esbuild (bin/prebuilt.js), so that
// `npm start` loads one JavaScript file instead of transforming ~300 TypeScript modules through tsx at every start
// (about 1.5 s of a cold start on a 2 vCPU box; see docs/bench.md). `npm start` rebuilds it when any source is
// newer, so an edited checkout never runs stale code; `npm run build:node` builds it explicitly.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildBundle, isStale, root } from '../prebuilt.js';

export const bundlePath = join(root, 'dist', 'node', 'server.mjs');

// Whatever can change the bundle's content: the sources, the dependency set and this build recipe.
const SOURCES = [
  'src',
  'functions',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'bin/prebuilt.js',
  'bin/server/node-bundle.js',
];

/** True when the bundle (by default the one `npm start` loads) is missing or older than any of its sources. */
export function isNodeBundleStale(bundle = bundlePath) {
  return isStale(bundle, SOURCES);
}

/** Builds the bundle. */
export function buildNodeBundle() {
  // PGlite loads its .wasm and data files from its own package folder; pg-native is pg's optional addon.
  return buildBundle({
    entry: 'functions/node.ts',
    outfile: bundlePath,
    external: ['@electric-sql/pglite', 'pg-native'],
  });
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
