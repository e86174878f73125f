// wrangler.toml [build] command (runs before every `wrangler dev`, `wrangler deploy` and `npm run build`): fills
// the static assets directory of [assets] with the reference UI from node_modules, under the same path the
// Node server serves it at. Workers serve these files before the Worker runs; they do not count toward the
// Worker bundle. See docs/deploy.md "Static assets".
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { referenceUiFile } from '../node/reference-ui-package';
import { DOCS_ASSETS_PREFIX, IMMUTABLE_CACHE, REFERENCE_UI_PATH } from '../v1/reference-ui';

const root = resolve(import.meta.dirname, '../..');
/** Must match `[assets] directory` in wrangler.toml. Everything in it is public, so it holds only what is built here. */
export const ASSETS_DIR = join(root, 'dist', 'worker-assets');

/**
 * Cloudflare's `_headers` file: the asset's name carries its version, so it may be cached for a year; nosniff like
 * every answer of the Worker (functions/middleware/request-context.ts). Content-Type comes from the extension.
 */
export const HEADERS_FILE = `${DOCS_ASSETS_PREFIX}*
  Cache-Control: ${IMMUTABLE_CACHE}
  X-Content-Type-Options: nosniff
`;

/** Builds the directory; unchanged content is left alone, so a `wrangler dev` already serving it is not disturbed. */
export function buildWorkerAssets(dir = ASSETS_DIR): { dir: string; changed: boolean } {
  const source = referenceUiFile(join(root, 'functions', 'node'));
  const target = join(dir, REFERENCE_UI_PATH);
  const headers = join(dir, '_headers');
  const upToDate =
    existsSync(target) &&
    existsSync(headers) &&
    readFileSync(headers, 'utf8') === HEADERS_FILE &&
    readFileSync(target).equals(readFileSync(source));
  if (upToDate) return { dir, changed: false };
  // Built beside the old one and swapped in: an older version's file (or anything else) never lingers as public.
  const temp = `${dir}.${process.pid}.tmp`;
  rmSync(temp, { recursive: true, force: true });
  mkdirSync(dirname(join(temp, REFERENCE_UI_PATH)), { recursive: true });
  copyFileSync(source, join(temp, REFERENCE_UI_PATH));
  writeFileSync(join(temp, '_headers'), HEADERS_FILE);
  rmSync(dir, { recursive: true, force: true });
  renameSync(temp, dir);
  return { dir, changed: true };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { dir, changed } = buildWorkerAssets();
  console.log(`${changed ? 'built' : 'up to date:'} ${dir}${REFERENCE_UI_PATH}`);
}
