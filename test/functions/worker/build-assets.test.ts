import { PUBLIC_SUFFIXES_ASSET_PATH } from '../../../src/adapters/public-suffixes/types';
import { publicSuffixesJson } from '../../../functions/node/public-suffixes';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ASSETS_DIR,
  STYLESHEET_MODULE,
  buildWorkerAssets,
  stylesheetModule,
  writeStylesheetModule,
} from '../../../functions/worker/build-assets';
import { referenceUiFile } from '../../../functions/node/reference-ui-package';
import { REFERENCE_UI_PATH } from '../../../functions/v1/docs/reference-ui';
import { disposableDomainsFile } from '../../../functions/node/disposable-domains';
import { DISPOSABLE_DOMAINS_ASSET_PATH } from '../../../src/adapters/disposable-domains/types';
import { STYLESHEET, stylesheetPath } from '../../../functions/pages/shell/stylesheet';
import { OPENAPI_TEMPLATE_ASSET_PATH, withOrigin } from '../../../functions/v1/docs/openapi-template';
import { openApiText } from '../../../functions/worker/openapi-text-from-assets';
import { createTestApp } from '../../helpers/test-app';
import { MCP_TOOL_LISTING_ASSET_PATH } from '../../../functions/mcp/tool-listing-asset';
import { listedTools } from '../../../functions/mcp/tool-listing';
import { mcpTools } from '../../../functions/mcp/tools';
import { toolListing } from '../../../functions/worker/mcp-tool-listing-from-assets';

// wrangler.toml [build] fills [assets] with exactly the reference UI, the stylesheet, the disposable-mail domain list
// and their headers; everything in that folder is public on Workers, so nothing else may be in it (docs/deploy.md "Static assets").
const root = resolve(import.meta.dirname, '../../..');
const dir = mkdtempSync(join(tmpdir(), 'tooldir-worker-assets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(folder, join(entry.parentPath, entry.name)))
    .sort();
}

describe('buildWorkerAssets', () => {
  it('is the directory wrangler.toml serves, and wrangler builds it before every dev, build and deploy', () => {
    const toml = readFileSync(join(root, 'wrangler.toml'), 'utf8');
    expect(toml).toMatch(/\[assets\]\ndirectory = "\.\/dist\/worker-assets"\nbinding = "ASSETS"\n/);
    expect(toml).toMatch(/\[build\]\ncommand = "npx tsx functions\/worker\/build-assets\.ts"\n/);
    expect(ASSETS_DIR).toBe(join(root, 'dist', 'worker-assets'));
  });

  const expectedFiles = [
    DISPOSABLE_DOMAINS_ASSET_PATH.slice(1),
    PUBLIC_SUFFIXES_ASSET_PATH.slice(1),
    OPENAPI_TEMPLATE_ASSET_PATH.slice(1),
    MCP_TOOL_LISTING_ASSET_PATH.slice(1),
    '_headers',
    REFERENCE_UI_PATH.slice(1),
    stylesheetPath().slice(1),
  ].sort();

  it('holds the installed UI and domain list under their served paths, and a _headers file for caching and nosniff', () => {
    const target = join(dir, 'fresh');
    expect(buildWorkerAssets(target).changed).toBe(true);
    expect(filesUnder(target)).toEqual(expectedFiles);
    expect(readFileSync(join(target, REFERENCE_UI_PATH)).equals(readFileSync(referenceUiFile()))).toBe(true);
    expect(
      readFileSync(join(target, DISPOSABLE_DOMAINS_ASSET_PATH)).equals(readFileSync(disposableDomainsFile())),
    ).toBe(true);
    expect(readFileSync(join(target, stylesheetPath()), 'utf8')).toBe(STYLESHEET);
    expect(readFileSync(join(target, '_headers'), 'utf8')).toBe(
      '/api/v1/docs/assets/*\n  Cache-Control: public, max-age=31536000, immutable\n  X-Content-Type-Options: nosniff\n' +
        `${stylesheetPath()}\n  Cache-Control: public, max-age=31536000, immutable\n  X-Content-Type-Options: nosniff\n` +
        '/_lists/disposable-email-domains.json\n  Cache-Control: public, max-age=86400\n  X-Content-Type-Options: nosniff\n' +
        `${PUBLIC_SUFFIXES_ASSET_PATH}\n  Cache-Control: public, max-age=86400\n  X-Content-Type-Options: nosniff\n` +
        '/api/v1/openapi.template.json\n  Cache-Control: public, max-age=300\n  X-Content-Type-Options: nosniff\n' +
        '/api/mcp/tool-listing.json\n  Cache-Control: public, max-age=300\n  X-Content-Type-Options: nosniff\n',
    );
    expect(buildWorkerAssets(target).changed).toBe(false); // a running `wrangler dev` is left alone
  });

  it('replaces a stale directory whole: an older version or a stray file never stays public', () => {
    const target = join(dir, 'stale');
    buildWorkerAssets(target);
    writeFileSync(join(target, REFERENCE_UI_PATH), 'an older build');
    writeFileSync(join(target, 'secret.txt'), 'not for the public');
    expect(buildWorkerAssets(target).changed).toBe(true);
    expect(filesUnder(target)).toEqual(expectedFiles);
    expect(readFileSync(join(target, REFERENCE_UI_PATH)).equals(readFileSync(referenceUiFile()))).toBe(true);
  });

  it("writes the Worker build's stylesheet module (the alias in wrangler.toml): the served path, none of the rules", async () => {
    const toml = readFileSync(join(root, 'wrangler.toml'), 'utf8');
    expect(toml).toContain(`"./stylesheet" = "./${relative(root, STYLESHEET_MODULE)}"`);
    expect(relative(ASSETS_DIR, STYLESHEET_MODULE).startsWith('..')).toBe(true); // not in the public folder
    const file = join(dir, 'module', 'stylesheet.ts');
    writeStylesheetModule(file);
    expect(readFileSync(file, 'utf8')).toBe(stylesheetModule());
    const module = (await import(file)) as { stylesheetPath(): string; STYLESHEET: string };
    expect(module.stylesheetPath()).toBe(stylesheetPath());
    expect(module.STYLESHEET).not.toContain('{'); // no rule of the stylesheet
  });

  it("holds openapi.json with a stand-in origin: the Worker's text for its origin is, byte for byte, what Node serves", async () => {
    const target = join(dir, 'openapi');
    buildWorkerAssets(target);
    const template = readFileSync(join(target, OPENAPI_TEMPLATE_ASSET_PATH), 'utf8');
    // The Worker's module, over a binding that answers from the built folder as Cloudflare's assets do.
    const ASSETS = {
      fetch: async (request: Request) =>
        new Response(readFileSync(join(target, new URL(request.url).pathname)), { status: 200 }),
    };
    const origin = 'https://tooldir.example';
    const served = await openApiText(undefined, origin, { ASSETS });
    expect(served).toBe(withOrigin(template, origin));
    const node = await createTestApp({ env: { SITE_ORIGIN: origin } });
    try {
      const res = await node.app.request(`${origin}/api/v1/openapi.json`, {
        headers: { 'cf-connecting-ip': '127.0.0.1' },
      });
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(served);
    } finally {
      await node.close();
    }
    await expect(openApiText(undefined, origin, {})).rejects.toThrow(/ASSETS/);
  }, 120_000);

  it("holds the MCP tools' listing: the Worker's tools/list answer is the one Node converts, tool for tool", async () => {
    const target = join(dir, 'tool-listing');
    buildWorkerAssets(target);
    const ASSETS = {
      fetch: async (request: Request) =>
        new Response(readFileSync(join(target, new URL(request.url).pathname)), { status: 200 }),
    };
    const node = JSON.parse(JSON.stringify(listedTools(mcpTools)));
    expect(await toolListing(mcpTools, { ASSETS })).toEqual(node);
    // Any subset, in the order asked for.
    const two = [mcpTools[1]!, mcpTools[0]!];
    expect(await toolListing(two, { ASSETS })).toEqual([node[1], node[0]]);
    await expect(toolListing([{ name: 'no_such_tool' }], { ASSETS })).rejects.toThrow(/no_such_tool/);
  }, 120_000);
});
