// wrangler.toml [build] command (runs before every `wrangler dev`, `wrangler deploy` and `npm run build`): fills
// the static assets directory of [assets] with the reference UI from node_modules, under the same path the
// Node server serves it at, the site's stylesheet under its hashed path, and the disposable-mail domain list
// sign-in reads through the ASSETS binding, openapi.json with a stand-in origin (./openapi-template.ts), which
// the Worker serves with its own origin put in, and the MCP tools' listing with their JSON Schemas (tools/list). Workers serve these files before the Worker runs; they do not count
// toward the Worker bundle. The Worker still names the stylesheet in every page: it gets the path alone from a
// module written here (STYLESHEET_MODULE, outside the public folder), which wrangler.toml [alias] puts in place of
// functions/pages/shell/stylesheet.ts. See docs/deploy.md "Static assets". It also writes the Worker build's
// stripe-node core with only the API resources the Worker calls (functions/worker/stripe-core-subset.ts).
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { referenceUiFile } from '../node/reference-ui-package';
import { disposableDomainsFile } from '../node/disposable-domains';
import { publicSuffixesJson } from '../node/public-suffixes';
import { PUBLIC_SUFFIXES_ASSET_PATH } from '../../src/adapters/public-suffixes/types';
import { DISPOSABLE_DOMAINS_ASSET_PATH } from '../../src/adapters/disposable-domains/types';
import { DOCS_ASSETS_PREFIX, IMMUTABLE_CACHE, REFERENCE_UI_PATH } from '../v1/docs/reference-ui';
import { STYLESHEET, stylesheetPath } from '../pages/shell/stylesheet';
import { STRIPE_CORE_MODULE, writeStripeCoreModule } from './stripe-core-subset';
import { OPENAPI_TEMPLATE_ASSET_PATH } from '../v1/docs/openapi-template';
import { openApiTemplate } from './openapi-template';
import { MCP_TOOL_LISTING_ASSET_PATH } from '../mcp/tool-listing-asset';
import { listedTools } from '../mcp/tool-listing';
import { mcpTools } from '../mcp/tools';

const root = resolve(import.meta.dirname, '../..');
/** Must match `[assets] directory` in wrangler.toml. Everything in it is public, so it holds only what is built here. */
export const ASSETS_DIR = join(root, 'dist', 'worker-assets');
/** Must match the `"./stylesheet"` alias in wrangler.toml: the stylesheet module of the Worker build, its path only. */
export const STYLESHEET_MODULE = join(root, 'dist', 'worker-build', 'stylesheet.ts');

/**
 * Cloudflare's `_headers` file: the asset's name carries its version, so it may be cached for a year; nosniff like
 * every answer of the Worker (functions/middleware/request-context.ts). Content-Type comes from the extension.
 */
export const HEADERS_FILE = `${DOCS_ASSETS_PREFIX}*
  Cache-Control: ${IMMUTABLE_CACHE}
  X-Content-Type-Options: nosniff
${stylesheetPath()}
  Cache-Control: ${IMMUTABLE_CACHE}
  X-Content-Type-Options: nosniff
${DISPOSABLE_DOMAINS_ASSET_PATH}
  Cache-Control: public, max-age=86400
  X-Content-Type-Options: nosniff
${PUBLIC_SUFFIXES_ASSET_PATH}
  Cache-Control: public, max-age=86400
  X-Content-Type-Options: nosniff
${OPENAPI_TEMPLATE_ASSET_PATH}
  Cache-Control: public, max-age=300
  X-Content-Type-Options: nosniff
${MCP_TOOL_LISTING_ASSET_PATH}
  Cache-Control: public, max-age=300
  X-Content-Type-Options: nosniff
`;

/** Builds the directory; unchanged content is left alone, so a `wrangler dev` already serving it is not disturbed. */
export function buildWorkerAssets(dir = ASSETS_DIR): { dir: string; changed: boolean } {
  const start = join(root, 'functions', 'node');
  // Served path -> its bytes (the installed file it is a copy of, or the stylesheet the Node server serves).
  const files: Array<[string, Buffer]> = [
    [REFERENCE_UI_PATH, readFileSync(referenceUiFile(start))],
    [stylesheetPath(), Buffer.from(STYLESHEET, 'utf8')],
    [DISPOSABLE_DOMAINS_ASSET_PATH, readFileSync(disposableDomainsFile(start))],
    [PUBLIC_SUFFIXES_ASSET_PATH, publicSuffixesJson(start)],
    [OPENAPI_TEMPLATE_ASSET_PATH, Buffer.from(openApiTemplate(), 'utf8')],
    [MCP_TOOL_LISTING_ASSET_PATH, Buffer.from(JSON.stringify(listedTools(mcpTools)), 'utf8')],
  ];
  const headers = join(dir, '_headers');
  const upToDate =
    existsSync(headers) &&
    readFileSync(headers, 'utf8') === HEADERS_FILE &&
    files.every(([path, bytes]) => existsSync(join(dir, path)) && readFileSync(join(dir, path)).equals(bytes));
  if (upToDate) return { dir, changed: false };
  // Built beside the old one and swapped in: an older version's file (or anything else) never lingers as public.
  const temp = `${dir}.${process.pid}.tmp`;
  rmSync(temp, { recursive: true, force: true });
  for (const [path, bytes] of files) {
    mkdirSync(dirname(join(temp, path)), { recursive: true });
    writeFileSync(join(temp, path), bytes);
  }
  writeFileSync(join(temp, '_headers'), HEADERS_FILE);
  rmSync(dir, { recursive: true, force: true });
  renameSync(temp, dir);
  return { dir, changed: true };
}

/** The Worker build's stylesheet module: the same path as the Node server's, none of the rules (they are an asset). */
export function stylesheetModule(): string {
  const path = JSON.stringify(stylesheetPath());
  return `// Written by functions/worker/build-assets.ts for the Worker build only (wrangler.toml [alias] "./stylesheet"): the
// stylesheet is the static asset ${stylesheetPath()}, served before the Worker runs, so the Worker carries its path alone.
export const STYLESHEET = '/* the stylesheet is the static asset ' + ${path} + ' */';
export function stylesheetPath(): string {
  return ${path};
}
`;
}

/** Writes STYLESHEET_MODULE when its content changed (wrangler dev watches the sources it bundles). */
export function writeStylesheetModule(file = STYLESHEET_MODULE): void {
  const text = stylesheetModule();
  if (existsSync(file) && readFileSync(file, 'utf8') === text) return;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { dir, changed } = buildWorkerAssets();
  writeStylesheetModule();
  writeStripeCoreModule();
  console.log(
    `${changed ? 'built' : 'up to date:'} ${dir} (${REFERENCE_UI_PATH}, ${stylesheetPath()}, ${DISPOSABLE_DOMAINS_ASSET_PATH}, ${OPENAPI_TEMPLATE_ASSET_PATH}, ${MCP_TOOL_LISTING_ASSET_PATH}); ${STYLESHEET_MODULE}, ${STRIPE_CORE_MODULE}`,
  );
}
