// wrangler.toml [build] command (runs before every `wrangler dev`, `wrangler deploy` and `npm run build`): fills
// the static assets directory of [assets] with the reference UI from node_modules, under the same path the
// Node server serves it at, and the disposable-mail domain list sign-in reads through the ASSETS binding.
// Workers serve these files before the Worker runs; they do not count toward the Worker bundle. See
// docs/deploy.md "Static assets".
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { referenceUiFile } from '../node/reference-ui-package';
import { disposableDomainsFile } from '../node/disposable-domains';
import { DISPOSABLE_DOMAINS_ASSET_PATH } from '../../src/adapters/disposable-domains/types';
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
${DISPOSABLE_DOMAINS_ASSET_PATH}
  Cache-Control: public, max-age=86400
  X-Content-Type-Options: nosniff
`;

/** Builds the directory; unchanged content is left alone, so a `wrangler dev` already serving it is not disturbed. */
export function buildWorkerAssets(dir = ASSETS_DIR): { dir: string; changed: boolean } {
  const start = join(root, 'functions', 'node');
  // Served path -> the installed file it is a copy of.
  const files: Array<[string, string]> = [
    [REFERENCE_UI_PATH, referenceUiFile(start)],
    [DISPOSABLE_DOMAINS_ASSET_PATH, disposableDomainsFile(start)],
  ];
  const headers = join(dir, '_headers');
  const upToDate =
    existsSync(headers) &&
    readFileSync(headers, 'utf8') === HEADERS_FILE &&
    files.every(([path, source]) => existsSync(join(dir, path)) && readFileSync(join(dir, path)).equals(readFileSync(source)));
  if (upToDate) return { dir, changed: false };
  // Built beside the old one and swapped in: an older version's file (or anything else) never lingers as public.
  const temp = `${dir}.${process.pid}.tmp`;
  rmSync(temp, { recursive: true, force: true });
  for (const [path, source] of files) {
    mkdirSync(dirname(join(temp, path)), { recursive: true });
    copyFileSync(source, join(temp, path));
  }
  writeFileSync(join(temp, '_headers'), HEADERS_FILE);
  rmSync(dir, { recursive: true, force: true });
  renameSync(temp, dir);
  return { dir, changed: true };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { dir, changed } = buildWorkerAssets();
  console.log(`${changed ? 'built' : 'up to date:'} ${dir} (${REFERENCE_UI_PATH}, ${DISPOSABLE_DOMAINS_ASSET_PATH})`);
}
