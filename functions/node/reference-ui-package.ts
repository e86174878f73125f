// Finds the reference UI's npm package on disk: for the Node server (functions/node/docs-assets.ts) and for the
// Worker's static assets build (functions/worker/build-assets.ts). Both read the very file npm installed.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REFERENCE_UI_FILE_IN_PACKAGE, REFERENCE_UI_PACKAGE, REFERENCE_UI_VERSION } from '../v1/docs/reference-ui';

/**
 * The package's folder, looked up the way Node resolves packages: node_modules/ of this folder, then of each
 * parent. Starting from import.meta.url works from the sources (functions/node/) and from the server bundle
 * (dist/node/), which both sit below the project root. The package's `exports` hide its browser build from
 * require.resolve, hence the walk.
 */
export function findPackageDir(start: string, name: string): string | null {
  for (let dir = start; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(dir) === dir) return null;
  }
}

/**
 * The path of the UI's browser bundle, after checking that the installed version is the one package.json pins
 * (the file name served carries that version and is cached for a year: another version must never hide behind it).
 * Throws with the fix in the message when the package is missing or another version is installed.
 */
export function referenceUiFile(start = dirname(fileURLToPath(import.meta.url))): string {
  const dir = findPackageDir(start, REFERENCE_UI_PACKAGE);
  if (!dir) throw new Error(`${REFERENCE_UI_PACKAGE} is not installed (run npm install)`);
  const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version?: string };
  if (version !== REFERENCE_UI_VERSION) {
    throw new Error(
      `${REFERENCE_UI_PACKAGE} ${version} is installed but package.json pins ${REFERENCE_UI_VERSION} (run npm install)`,
    );
  }
  return join(dir, REFERENCE_UI_FILE_IN_PACKAGE);
}
