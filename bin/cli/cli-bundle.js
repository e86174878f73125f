// The `tooldir` command prebuilt into one ESM file (dist/cli/tooldir.mjs) with esbuild (bin/prebuilt.js): a command
// starts in about a third of the time it takes through tsx. Rebuilt when any source is newer, so an edited checkout
// never runs stale code; made by `npm install` (bin/server/prepare.js) so the first command is fast too.
import { join } from 'node:path';
import { buildBundle, isStale, root } from '../prebuilt.js';

export const cliBundlePath = join(root, 'dist', 'cli', 'tooldir.mjs');

// The CLI imports src/cli/ and the leaf modules, catalogue and schemas of src/ (never functions/).
const SOURCES = [
  'src',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'bin/prebuilt.js',
  'bin/cli/cli-bundle.js',
];

/** True when the bundle is missing or older than any of its sources. */
export function isCliBundleStale(bundle = cliBundlePath) {
  return isStale(bundle, SOURCES);
}

/** The bundle's path, rebuilt first if stale. */
export async function ensureCliBundle() {
  if (isCliBundleStale()) await buildBundle({ entry: 'src/cli/main.ts', outfile: cliBundlePath });
  return cliBundlePath;
}
