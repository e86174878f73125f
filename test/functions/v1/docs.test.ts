import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPackageDocsAssets } from '../../../functions/node/docs-assets';
import { referenceUiFile } from '../../../functions/node/reference-ui-package';
import { REFERENCE_UI_ASSET, REFERENCE_UI_PATH, REFERENCE_UI_VERSION } from '../../../functions/v1/reference-ui';
import { createLogger } from '../../../src/log';
import { createTestApp, type TestApp } from '../../helpers/test-app';

// /api/v1/docs and its script, over HTTP: a policy that names no other origin and allows no eval, and the
// script served from the installed npm package with long-lived caching (docs/mcp-and-search.md).
let node: TestApp; // the Node server's shape: assets read from node_modules
let worker: TestApp; // the Worker's shape: no asset source (static assets answer before the Worker runs)
beforeAll(async () => {
  node = await createTestApp({ app: { docsAssets: createPackageDocsAssets() } });
  worker = await createTestApp({ db: { db: node.deps.db, close: async () => {} } });
});
afterAll(async () => {
  await worker?.close();
  await node?.close();
});

/** `directive -> sources` of a Content-Security-Policy header. */
function parseCsp(header: string): Map<string, string[]> {
  return new Map(
    header
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...sources]) => [name!.toLowerCase(), sources]),
  );
}

const sha256Base64 = (text: string) => createHash('sha256').update(text).digest('base64');

describe('GET /api/v1/docs', () => {
  it('loads the UI only from this origin, under a policy with no other origin, no eval and no framing', async () => {
    const res = await node.request('/api/v1/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = parseCsp(res.headers.get('content-security-policy')!);
    const allSources = [...csp.values()].flat();
    // Only keywords, hashes and data: (images): no scheme, host or wildcard names another origin.
    for (const source of allSources) expect(source).toMatch(/^('self'|'none'|'unsafe-inline'|'sha256-[A-Za-z0-9+/]+=*'|data:)$/);
    expect(allSources).not.toContain("'unsafe-eval'");
    expect(csp.get('default-src')).toEqual(["'none'"]);
    expect(csp.get('script-src')?.[0]).toBe("'self'");
    expect(csp.get('script-src')).not.toContain("'unsafe-inline'");
    expect(csp.get('connect-src')).toEqual(["'self'"]);
    expect(csp.get('img-src')).toEqual(["'self'", 'data:']);
    expect(csp.get('font-src')).toEqual(["'self'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'none'"]);

    const html = await res.text();
    expect(html).not.toMatch(/https?:\/\//); // no URL of any other origin anywhere in the page
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)].map(([, attrs, body]) => ({ attrs: attrs!, body: body! }));
    expect(scripts.filter((s) => /\ssrc="/.test(s.attrs)).map((s) => /\ssrc="([^"]+)"/.exec(s.attrs)![1])).toEqual([REFERENCE_UI_PATH]);
    // Every inline script that runs is allowed by its hash, and nothing else is.
    const inline = scripts.filter((s) => !/\ssrc="|type="application\/json"/.test(s.attrs));
    expect(inline.length).toBe(1);
    expect(csp.get('script-src')!.slice(1)).toEqual(inline.map((s) => `'sha256-${sha256Base64(s.body)}'`));
  });

  it('points the UI at openapi.json with fonts, telemetry, the AI agent, MCP panel and hosted-client button off', async () => {
    const html = await (await node.request('/api/v1/docs')).text();
    const mount = /<script id="api-reference" type="application\/json" data-url="([^"]+)" data-configuration="([^"]+)"><\/script>/.exec(html);
    expect(mount?.[1]).toBe('/api/v1/openapi.json');
    const configuration = JSON.parse(mount![2]!.replaceAll('&quot;', '"').replaceAll('&amp;', '&'));
    expect(configuration).toEqual({
      withDefaultFonts: false,
      telemetry: false,
      agent: { disabled: true },
      mcp: { disabled: true },
      showDeveloperTools: 'never',
      hideClientButton: true,
    });
  });

  it('is the same page, with the same policy, on the Worker', async () => {
    const [a, b] = await Promise.all([node.request('/api/v1/docs'), worker.request('/api/v1/docs')]);
    expect(b.headers.get('content-security-policy')).toBe(a.headers.get('content-security-policy'));
    expect(await b.text()).toBe(await a.text());
  });
});

describe(`GET ${REFERENCE_UI_PATH}`, () => {
  const installed = readFileSync(referenceUiFile());

  it('serves the installed package file as JavaScript, nosniff, cacheable for a year', async () => {
    const res = await node.request(REFERENCE_UI_PATH);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.length).toBe(installed.length);
    expect(body.equals(installed)).toBe(true);
    expect(REFERENCE_UI_ASSET).toBe(`scalar-api-reference-${REFERENCE_UI_VERSION}.js`);
  });

  it('answers HEAD with the same headers', async () => {
    const res = await node.request(REFERENCE_UI_PATH, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('counts against the per-IP public limit like the page itself', async () => {
    const res = await node.request(REFERENCE_UI_PATH);
    expect(res.headers.get('ratelimit-limit')).toBe('60');
  });

  it.each([
    '/api/v1/docs/assets/scalar-api-reference-0.0.1.js',
    '/api/v1/docs/assets/standalone.js',
    '/api/v1/docs/assets/..%2F..%2F..%2Fpackage.json',
    '/api/v1/docs/assets/%2e%2e',
    `/api/v1/docs/assets/${REFERENCE_UI_ASSET}%00`,
    '/api/v1/docs/assets/',
  ])('answers 404 in the error shape for %s', async (path) => {
    const res = await node.request(path);
    expect(res.status).toBe(404);
    expect(Object.keys((await res.json()).error).sort()).toEqual(['code', 'message']);
    expect(res.headers.get('cache-control') ?? '').not.toMatch(/immutable/);
  });

  it('is not served by an app without an asset source (the Worker, where static assets answer first)', async () => {
    const res = await worker.request(REFERENCE_UI_PATH);
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe('not_found');
  });

  it('refuses other methods with 405', async () => {
    const res = await node.request(REFERENCE_UI_PATH, { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    expect(await res.json()).toEqual({ error: { code: 'method_not_allowed', message: expect.stringMatching(/is not allowed on/) } });
    expect(res.headers.get('cache-control') ?? '').not.toMatch(/immutable/);
  });

  it('answers 500 and logs the fix when another version is installed than package.json pins', async () => {
    const project = mkdtempSync(join(tmpdir(), 'tooldir-misinstalled-'));
    try {
      const pkg = join(project, 'node_modules', '@scalar', 'api-reference');
      mkdirSync(join(pkg, 'dist', 'browser'), { recursive: true });
      writeFileSync(join(pkg, 'package.json'), '{"version":"0.0.1"}');
      writeFileSync(join(pkg, 'dist', 'browser', 'standalone.js'), '/* another version */');
      const lines: string[] = [];
      const app = await createTestApp({
        db: { db: node.deps.db, close: async () => {} },
        overrides: { log: createLogger('error', (line) => lines.push(line)) },
        app: { docsAssets: createPackageDocsAssets(project) },
      });
      const res = await app.request(REFERENCE_UI_PATH);
      expect(res.status).toBe(500);
      expect(await res.text()).not.toContain('another version');
      expect(lines.join('\n')).toContain(`0.0.1 is installed but package.json pins ${REFERENCE_UI_VERSION} (run npm install)`);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });
});
