// The Node server's files under /api/v1/docs/assets/: the reference UI read from the installed npm package
// (no copy, no build step, so `npm run start:source` and the bundle in dist/node/ serve the same file).
import { readFile } from 'node:fs/promises';
import type { DocsAssetSource } from '../types';
import { JAVASCRIPT_TYPE, REFERENCE_UI_ASSET } from '../v1/docs/reference-ui';
import { referenceUiFile } from './reference-ui-package';

/** Reads the file on first request and keeps it (4 MiB); a failed read (package missing) is retried next time. */
export function createPackageDocsAssets(start?: string): DocsAssetSource {
  let body: Promise<Uint8Array<ArrayBuffer>> | undefined;
  const load = async () => readFile(referenceUiFile(start));
  return async (name) => {
    if (name !== REFERENCE_UI_ASSET) return null;
    body ??= load().catch((error: unknown) => {
      body = undefined;
      throw error;
    });
    return { body: await body, contentType: JAVASCRIPT_TYPE };
  };
}
