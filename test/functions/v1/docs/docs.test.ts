import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPackageDocsAssets } from '../../../../functions/node/docs-assets';
import { referenceUiFile } from '../../../../functions/node/reference-ui-package';
import {
  REFERENCE_UI_ASSET,
  REFERENCE_UI_PATH,
  REFERENCE_UI_VERSION,
} from '../../../../functions/v1/docs/reference-ui';
import { openApiDocument } from '../../../../functions/v1/docs/openapi';
import { COPY_SCRIPT } from '../../../../functions/pages/shell/copy-button';
import { pageCsp } from '../../../../functions/pages/shell/document';
import { stylesheetPath } from '../../../../functions/pages/shell/stylesheet';
import { createLogger } from '../../../../src/log';
import { createTestApp, type TestApp } from '../../../helpers/test-app';

// Over HTTP: the reference page /api/v1/docs (rendered from openapi.json in the site's shell, every operation,
// no script needed), its "Try it" redirects, and the Scalar explorer at /api/v1/docs/explorer with its script: a
// policy that names no other origin and allows no eval, the script served from the installed npm package with
// long-lived caching (docs/mcp-and-search.md "The API reference").
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

interface Operation {
  operationId: string;
  summary: string;
  tags: string[];
  security: Array<Record<string, string[]>>;
  requestBody?: unknown;
}
type Paths = Record<string, Record<string, Operation>>;

/** The text of the element with this id, up to the next element of the same kind (a section, a heading). */
const sectionOf = (html: string, id: string) => {
  const at = html.indexOf(`<h3 id="${id}">`);
  expect(at, id).toBeGreaterThan(-1);
  return html.slice(at, html.indexOf('</section>', at));
};

const unescape = (text: string) =>
  text
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');

describe('GET /api/v1/docs (the reference page)', () => {
  let html: string;
  let paths: Paths;
  beforeAll(async () => {
    html = await (await node.request('/api/v1/docs')).text();
    paths = ((await (await node.request('/api/v1/openapi.json')).json()) as { paths: Paths }).paths;
  });

  it('is a page of the site: its shell, the one stylesheet, one <main>, one h1, and the strict page policy', async () => {
    const res = await node.request('/api/v1/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    // The policy of every page of ours (functions/pages/shell/document.ts): the copy buttons' one script by its hash.
    expect(res.headers.get('content-security-policy')).toBe(pageCsp(COPY_SCRIPT));
    const csp = parseCsp(res.headers.get('content-security-policy')!);
    expect(csp.get('script-src')).toEqual([`'sha256-${sha256Base64(COPY_SCRIPT)}'`]);
    expect(csp.get('style-src')).toEqual(["'self'"]);
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    const page = await res.text();
    expect(page).toContain(`<link rel="stylesheet" href="${stylesheetPath()}">`);
    expect(page).toContain('<header class="site">');
    expect(page).toContain('<footer class="site">');
    expect(page.match(/<main\b/g)).toHaveLength(1);
    expect(page.match(/<h1\b/g)).toHaveLength(1);
    // The only script is the copy buttons'; nothing is loaded from anywhere.
    expect([...page.matchAll(/<script([^>]*)>/g)].map((m) => m[1])).toEqual(['']);
    expect(page).not.toContain(REFERENCE_UI_PATH);
  });

  it('links the interactive explorer and the OpenAPI document', () => {
    expect(html).toContain('<a href="/api/v1/docs/explorer">');
    expect(html).toContain('<a href="/api/v1/openapi.json">');
  });

  it('shows every operation of openapi.json with method, path, summary, auth, responses and a curl example, in the contents', () => {
    const operations = Object.entries(paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ path, method, op })),
    );
    expect(operations.length).toBeGreaterThan(20);
    for (const { path, method, op } of operations) {
      const section = sectionOf(html, op.operationId);
      expect(section).toContain(`<span class="method">${method.toUpperCase()}</span> <code>${path}</code>`);
      expect(unescape(section)).toContain(op.summary);
      const scheme = Object.keys(op.security[0] ?? {})[0];
      expect(section).toContain(scheme ? `Auth: <a href="#auth-${scheme}">` : 'Auth: none');
      expect(section).toContain('<h4>Responses</h4>');
      expect(section).toMatch(new RegExp(`<pre id="curl-${op.operationId}">curl `));
      if (op.requestBody) expect(section).toContain('<h4>Request body</h4>');
      // The contents link to it, and the anchor exists once.
      expect(html).toContain(
        `<a href="#${op.operationId}"><span class="method">${method.toUpperCase()}</span> ${path}</a>`,
      );
      expect(html.split(`id="${op.operationId}"`)).toHaveLength(2);
    }
  });

  it('groups the operations under their tag, in the order of the tags', () => {
    const headings = [...html.matchAll(/<h2 id="tag-([a-z-]+)">([^<]+)<\/h2>/g)].map((m) => ({
      at: m.index,
      name: m[2]!,
    }));
    expect(headings.map((h) => h.name)).toEqual([
      'Submissions',
      'Directory',
      'MCP Registry',
      'Webhooks',
      'Domains',
      'Claims',
      'Membership',
      'Operator',
    ]);
    for (const item of Object.values(paths)) {
      for (const op of Object.values(item)) {
        const at = html.indexOf(`<h3 id="${op.operationId}">`);
        const under = headings.filter((h) => h.at < at).at(-1);
        expect(under?.name, op.operationId).toBe(op.tags[0]);
      }
    }
  });

  it('reads a request body as a nested list of fields with types, requirements and allowed values, not as JSON', () => {
    const submit = sectionOf(html, 'submitSite');
    const body = submit.slice(submit.indexOf('<h4>Request body</h4>'), submit.indexOf('<h4>Responses</h4>'));
    expect(body).toMatch(/<ul class="fields"><li><code>name<\/code> <em>string<\/em> <strong>required<\/strong>/);
    expect(body).toMatch(/<li><code>url<\/code> <em>string<\/em> <strong>required<\/strong> – Tool website URL/);
    expect(body).toContain(
      'one of <code>basic</code>, <code>featured</code>, <code>sponsored</code>, <code>pro</code>',
    );
    // Not a JSON dump: no object literal, no preformatted block (an array example is a value, shown as one).
    expect(body).not.toMatch(/\{&quot;|<pre/);
    // A response body is a disclosure with its fields, and an error links to the one error shape.
    expect(submit).toMatch(/<dt>201<\/dt><dd>[^]*?<details><summary>Body: [A-Za-z]+<\/summary><ul class="fields">/);
    expect(submit).toMatch(/<dt>400<\/dt><dd>[^]*?Body: <a href="#errors">error<\/a>/);
    // Nested: the error shape's `error` object holds its own list.
    expect(html).toMatch(
      /<h2 id="errors">[^]*?<li><code>error<\/code> <em>object<\/em> <strong>required<\/strong><ul class="fields"><li><code>code<\/code>/,
    );
  });

  it('gives each operation a curl command that sends its auth from the environment and a body that its schema accepts', async () => {
    const submit = unescape(/<pre id="curl-submitSite">([^<]*)<\/pre>/.exec(html)![1]!);
    expect(submit).toMatch(
      /^curl -X POST 'http:\/\/tooldir\.test\/api\/v1\/submit-site' \\\n {2}-H "Authorization: Bearer \$TOOLDIR_API_KEY" \\\n/,
    );
    const body = JSON.parse(/-d '(.*)'$/.exec(submit)![1]!) as { name: string; url: string };
    expect(Object.keys(body)).toEqual(expect.arrayContaining(['name', 'url']));
    // The example body passes the API's own validation (401 without a key means it got past nothing; with one: 201/402).
    const member = await node.member('member');
    const sent = await node.request('/api/v1/submit-site', {
      method: 'POST',
      key: member.key,
      json: { ...body, url: `https://curl-${crypto.randomUUID().slice(0, 8)}.example/` },
    });
    expect([201, 402]).toContain(sent.status);
    expect(unescape(/<pre id="curl-getTool">([^<]*)<\/pre>/.exec(html)![1]!)).toMatch(
      /^curl 'http:\/\/tooldir\.test\/api\/v1\/tools\/[^']+'$/,
    );
    expect(unescape(/<pre id="curl-createAccount">([^<]*)<\/pre>/.exec(html)![1]!)).toContain(
      '-H "Authorization: Bearer $ADMIN_TOKEN"',
    );
  });

  it('offers a "Try it" form, a plain GET form, only for public reads', () => {
    const forms = [
      ...html.matchAll(
        /<form class="try" method="get" action="\/api\/v1\/docs\/try"[^>]*><input type="hidden" name="op" value="([A-Za-z]+)">/g,
      ),
    ].map((m) => m[1]);
    expect(forms.sort()).toEqual([
      'getRegistryServerVersion',
      'getTool',
      'listCategories',
      'listChanges',
      'listRegistryServerVersions',
      'listRegistryServers',
      'searchTools',
    ]);
  });

  it('is private for a visitor with a session (its header says Account) and answers HEAD', async () => {
    const signedIn = await node.request('/api/v1/docs', { headers: { cookie: 'tooldir_session=anything' } });
    expect(signedIn.headers.get('cache-control')).toBe('private, no-cache');
    expect(signedIn.headers.get('vary')).toMatch(/Cookie/);
    expect(await signedIn.text()).toContain('<a href="/account">Account</a>');
    const head = await node.request('/api/v1/docs', { method: 'HEAD' });
    expect(head.status).toBe(200);
  });

  it.each(['POST', 'PUT', 'DELETE'])('refuses %s with 405 and Allow', async (method) => {
    const res = await node.request('/api/v1/docs', { method });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    expect((await res.json()).error.code).toBe('method_not_allowed');
  });

  it('counts against the per-IP public limit', async () => {
    const res = await node.request('/api/v1/docs');
    expect(res.headers.get('ratelimit-limit')).toBe('60');
  });

  it('is the same page on the Worker', async () => {
    const [a, b] = await Promise.all([node.request('/api/v1/docs'), worker.request('/api/v1/docs')]);
    expect(b.headers.get('content-security-policy')).toBe(a.headers.get('content-security-policy'));
    expect(await b.text()).toBe(await a.text());
  });

  it('is built once per origin: openapi.json and the page share one document, and each local origin names itself', async () => {
    const local = await createTestApp({
      db: { db: node.deps.db, close: async () => {} },
      env: { SITE_ORIGIN: undefined },
    });
    try {
      expect(openApiDocument(local.app, 'http://localhost:8787')).toBe(
        openApiDocument(local.app, 'http://localhost:8787'),
      );
      const viaLocalhost = await (await local.app.request('http://localhost:8787/api/v1/docs')).text();
      const viaLoopback = await (await local.app.request('http://127.0.0.1:8787/api/v1/docs')).text();
      expect(unescape(viaLocalhost)).toContain("curl 'http://localhost:8787/api/v1/tools");
      expect(viaLocalhost).not.toContain('http://127.0.0.1:8787');
      expect(unescape(viaLoopback)).toContain("curl 'http://127.0.0.1:8787/api/v1/tools");
      const doc = (await (await local.app.request('http://127.0.0.1:8787/api/v1/openapi.json')).json()) as {
        servers: Array<{ url: string }>;
      };
      expect(doc.servers).toEqual([{ url: 'http://127.0.0.1:8787', description: 'This server' }]);
      // The same bytes again: the rendered content is kept, not rebuilt.
      expect(await (await local.app.request('http://localhost:8787/api/v1/docs')).text()).toBe(viaLocalhost);
    } finally {
      await local.close();
    }
  });
});

describe('GET /api/v1/docs/try (the "Try it" forms)', () => {
  const tryIt = (query: Record<string, string>) => node.request(`/api/v1/docs/try?${new URLSearchParams(query)}`);

  it.each([
    [{ op: 'searchTools', q: 'pixel', limit: '5', cursor: '', category: '' }, '/api/v1/tools?q=pixel&limit=5'],
    [{ op: 'searchTools', q: ' ', limit: '' }, '/api/v1/tools'],
    [{ op: 'listCategories' }, '/api/v1/categories'],
    [{ op: 'getTool', slug: 'pixel-forge' }, '/api/v1/tools/pixel-forge'],
    // A value is one segment of the operation's own path: no climbing out of it, no other host.
    [{ op: 'getTool', slug: '../../admin/accounts' }, '/api/v1/tools/%2E%2E%2F%2E%2E%2Fadmin%2Faccounts'],
    [{ op: 'getTool', slug: '//evil.example' }, '/api/v1/tools/%2F%2Fevil%2Eexample'],
    [{ op: 'getTool', slug: 'x', extra: 'dropped' }, '/api/v1/tools/x'],
  ])('%o redirects (303) to %s', async (query, location) => {
    const res = await tryIt(query as Record<string, string>);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(location);
  });

  it.each([
    'op=getTool&slug=%FF',
    'op=getTool&slug=a%0D%0ALocation:%20https://evil.example',
    'op=searchTools&q=%E0%A4%A',
    'op=%00',
    'op=getTool&slug=%00',
  ])('answers the raw query %s below 500, with no header of its making', async (query) => {
    const res = await node.request(`/api/v1/docs/try?${query}`);
    expect(res.status).toBeLessThan(500);
    expect([303, 400]).toContain(res.status);
    if (res.status === 303) expect(res.headers.get('location')).toMatch(/^\/api\/v1\/tools(\/[^/?\s]+)?(\?[^\s]*)?$/);
    else expect((await res.json()).error.code).toBe('invalid_request');
  });

  it('lands on the operation: the redirect target answers as the API does', async () => {
    const res = await tryIt({ op: 'getTool', slug: '../../admin/accounts' });
    const target = await node.request(res.headers.get('location')!);
    expect(target.status).toBe(404);
    expect((await target.json()).error.code).toBe('not_found');
  });

  it.each([
    [{}, /op must be one of getTool|searchTools/],
    [{ op: 'nope' }, /op must be one of/],
    [{ op: 'listSites' }, /op must be one of/], // needs a key: no form, no redirect
    [{ op: 'createAccount' }, /op must be one of/],
    [{ op: 'getTool' }, /slug is required/],
    [{ op: 'getTool', slug: '  ' }, /slug is required/],
  ])('%o is a 400 in the error shape', async (query, message) => {
    const res = await tryIt(query as Record<string, string>);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(Object.keys(body.error).sort()).toEqual(['code', 'message']);
    expect(body.error.code).toBe('invalid_request');
    expect(body.error.message).toMatch(message);
  });
});

describe('GET /api/v1/docs/explorer (Scalar)', () => {
  it('loads the UI only from this origin, under a policy with no other origin, no eval and no framing', async () => {
    const res = await node.request('/api/v1/docs/explorer');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = parseCsp(res.headers.get('content-security-policy')!);
    const allSources = [...csp.values()].flat();
    // Only keywords, hashes and data: (images): no scheme, host or wildcard names another origin.
    for (const source of allSources)
      expect(source).toMatch(/^('self'|'none'|'unsafe-inline'|'sha256-[A-Za-z0-9+/]+=*'|data:)$/);
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
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)].map(([, attrs, body]) => ({
      attrs: attrs!,
      body: body!,
    }));
    expect(scripts.filter((s) => /\ssrc="/.test(s.attrs)).map((s) => /\ssrc="([^"]+)"/.exec(s.attrs)![1])).toEqual([
      REFERENCE_UI_PATH,
    ]);
    // Every inline script that runs is allowed by its hash, and nothing else is.
    const inline = scripts.filter((s) => !/\ssrc="|type="application\/json"/.test(s.attrs));
    expect(inline.length).toBe(1);
    expect(csp.get('script-src')!.slice(1)).toEqual(inline.map((s) => `'sha256-${sha256Base64(s.body)}'`));
    // Without JavaScript it points to the page that works without it.
    expect(html).toMatch(/<noscript>[^<]*<a href="\/api\/v1\/docs">API reference<\/a>/);
  });

  it('points the UI at openapi.json with fonts, telemetry, the AI agent, MCP panel and hosted-client button off', async () => {
    const html = await (await node.request('/api/v1/docs/explorer')).text();
    const mount =
      /<script id="api-reference" type="application\/json" data-url="([^"]+)" data-configuration="([^"]+)"><\/script>/.exec(
        html,
      );
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

  it('is the same page, with the same policy, on the Worker; 405 on other methods', async () => {
    const [a, b] = await Promise.all([node.request('/api/v1/docs/explorer'), worker.request('/api/v1/docs/explorer')]);
    expect(b.headers.get('content-security-policy')).toBe(a.headers.get('content-security-policy'));
    expect(await b.text()).toBe(await a.text());
    const post = await node.request('/api/v1/docs/explorer', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(a.headers.get('ratelimit-limit')).toBe('60');
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
    expect(await res.json()).toEqual({
      error: { code: 'method_not_allowed', message: expect.stringMatching(/is not allowed on/) },
    });
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
      expect(lines.join('\n')).toContain(
        `0.0.1 is installed but package.json pins ${REFERENCE_UI_VERSION} (run npm install)`,
      );
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });
});
