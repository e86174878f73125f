// The disposable-mail domain list on Node (the server and the tests): read from the installed npm package on
// the first sign-in request. The Worker reads the same file from its static assets (functions/worker/build-assets.ts).
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDisposableDomains } from '../../src/adapters/disposable-domains/list';
import {
  DISPOSABLE_DOMAINS_FILE_IN_PACKAGE,
  DISPOSABLE_DOMAINS_PACKAGE,
  type DisposableDomains,
} from '../../src/adapters/disposable-domains/types';
import { findPackageDir } from './reference-ui-package';

/** The list's path in node_modules (found by walking up, so the bundle in dist/node/ finds it too). */
export function disposableDomainsFile(start = dirname(fileURLToPath(import.meta.url))): string {
  const dir = findPackageDir(start, DISPOSABLE_DOMAINS_PACKAGE);
  if (!dir) throw new Error(`${DISPOSABLE_DOMAINS_PACKAGE} is not installed (run npm install)`);
  return join(dir, DISPOSABLE_DOMAINS_FILE_IN_PACKAGE);
}

export function createPackageDisposableDomains(): DisposableDomains {
  return createDisposableDomains(async () => JSON.parse(await readFile(disposableDomainsFile(), 'utf8')) as unknown);
}
