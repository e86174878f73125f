// The Public Suffix List on Node (the server and the tests): read from the installed npm package on first use. The
// Worker reads the same rules from its static assets (functions/worker/build-assets.ts writes them there as JSON).
import { readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPublicSuffixes, rulesFromModuleText } from '../../src/adapters/public-suffixes/list';
import {
  PUBLIC_SUFFIXES_FILE_IN_PACKAGE,
  PUBLIC_SUFFIXES_PACKAGE,
  type PublicSuffixes,
} from '../../src/adapters/public-suffixes/types';
import { findPackageDir } from './reference-ui-package';

/** The rules file's path in node_modules (found by walking up, so the bundle in dist/node/ finds it too). */
export function publicSuffixesFile(start = dirname(fileURLToPath(import.meta.url))): string {
  const dir = findPackageDir(start, PUBLIC_SUFFIXES_PACKAGE);
  if (!dir) throw new Error(`${PUBLIC_SUFFIXES_PACKAGE} is not installed (run npm install)`);
  return join(dir, PUBLIC_SUFFIXES_FILE_IN_PACKAGE);
}

/** The rules as the JSON the Worker's asset holds. */
export const publicSuffixesJson = (start?: string): Buffer =>
  Buffer.from(JSON.stringify(rulesFromModuleText(readFileSync(publicSuffixesFile(start), 'utf8'))), 'utf8');

export function createPackagePublicSuffixes(): PublicSuffixes {
  return createPublicSuffixes(async () => rulesFromModuleText(await readFile(publicSuffixesFile(), 'utf8')));
}
