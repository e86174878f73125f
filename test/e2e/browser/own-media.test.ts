// Own media in a real browser (Debian's Chromium via playwright-core): the home page, tool pages and /admin at
// 390 px and 1280 px show no broken image and send no request to any other origin, with the real Node entry
// storing crawled images in DATA_DIR/media. The crawl reaches a loopback fixture only (test/helpers/pipeline-harness.ts).
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startNodeServer, type NodeServer } from '../../../functions/node';
import { findChromium } from '../../helpers/services/chromium';
import { requireService } from '../../helpers/services/require-service';
import { htmlPage, startFixtureSite, type FixtureHandler, type FixtureSite } from '../../helpers/fixture-site';
import { HTML, icoBytes, pngBytes, SVG } from '../../helpers/image-bytes';
import { loopbackOnlyTransport, networkViolations } from '../../helpers/pipeline-harness';

const CHROMIUM = findChromium();
const describeBrowser = requireService('Chromium', CHROMIUM !== null, 'REQUIRE_BROWSER');

const PNG = pngBytes(77);
const ICO = icoBytes();
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const bytes =
  (body: Uint8Array | string, contentType: string): FixtureHandler =>
  (_request, response) =>
    void response
      .writeHead(200, { 'content-type': contentType })
      .end(typeof body === 'string' ? body : Buffer.from(body));
const page = (title: string, image: string, icon: string) =>
  htmlPage(
    `<html><head><title>${title}</title><meta property="og:image" content="${image}"><link rel="icon" href="${icon}"></head><body></body></html>`,
  );

describeBrowser('own media in Chromium', () => {
  let server: NodeServer;
  let fixture: FixtureSite;
  let browser: Browser;
  let dataDir: string;
  const slugs: string[] = [];

  beforeAll(async () => {
    fixture = await startFixtureSite({
      '/og.png': bytes(PNG, 'text/plain'),
      '/favicon.ico': bytes(ICO, 'image/x-icon'),
      '/logo.svg': bytes(SVG, 'image/svg+xml'),
      '/fake.png': bytes(HTML, 'image/png'),
      '/good': page('Pictured Tool', '/og.png', '/favicon.ico'),
      '/bad': page('Plain Tool', '/logo.svg', '/fake.png'),
    });
    dataDir = mkdtempSync(join(tmpdir(), 'tooldir-media-browser-'));
    cpSync(inject('pgliteTemplate'), join(dataDir, 'pglite'), { recursive: true });
    server = await startNodeServer(
      {
        HOST: '127.0.0.1',
        PORT: '0',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        CRAWL_ALLOW_PRIVATE: 'true',
        AUTO_APPROVE: 'true',
      },
      { overrides: { crawl: loopbackOnlyTransport() }, localSweeper: false },
    );
    const admin = { authorization: `Bearer ${server.adminToken}`, 'content-type': 'application/json' };
    const created = await fetch(`${server.url}/api/v1/admin/accounts`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ email: 'media@example.com', tier: 'member' }),
    });
    expect(created.status).toBe(201);
    const account = (await created.json()) as { account_id: string };
    const keyed = await fetch(`${server.url}/api/v1/admin/accounts/${account.account_id}/keys`, {
      method: 'POST',
      headers: { authorization: admin.authorization },
    });
    expect(keyed.status, await keyed.clone().text()).toBe(201);
    const { key } = (await keyed.json()) as { key: string };
    const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    for (const [name, path] of [
      ['Pictured Tool', '/good'],
      ['Plain Tool', '/bad'],
    ] as const) {
      const submitted = await fetch(`${server.url}/api/v1/submit-site`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ name, url: `${fixture.origin}${path}` }),
      });
      expect(submitted.status).toBe(201);
      const { site_id } = (await submitted.json()) as { site_id: string };
      const status = async () =>
        (await (await fetch(`${server.url}/api/v1/sites/${site_id}`, { headers: auth })).json()) as {
          status: string;
          live_url?: string;
        };
      await (server.deps.queue as unknown as { idle(): Promise<void> }).idle(); // the in-process queue ran crawl and review
      const record = await status();
      expect(record.status).toBe('live');
      slugs.push(new URL(record.live_url!).pathname);
    }
    browser = await chromium.launch({
      executablePath: CHROMIUM!,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
      ],
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await fixture?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    expect(networkViolations).toEqual([]);
  });

  it('stored the crawled images as files named by their hash in DATA_DIR/media', () => {
    expect(new Uint8Array(readFileSync(join(dataDir, 'media', `${sha(PNG)}.png`)))).toEqual(PNG);
    expect(new Uint8Array(readFileSync(join(dataDir, 'media', `${sha(ICO)}.ico`)))).toEqual(ICO);
  });

  /** Every image on the page, scrolled to (lazy ones load) and decoded: a broken one fails decode(). */
  const imageReport = (p: Page) =>
    p.evaluate(async () =>
      Promise.all(
        [...document.images].map(async (img) => {
          img.scrollIntoView();
          const ok = await img.decode().then(
            () => img.naturalWidth > 0,
            () => false,
          );
          return { src: img.getAttribute('src') ?? '', ok };
        }),
      ),
    );

  it.each([390, 1280])(
    'shows the pages at %i px with no broken image and no request to another origin',
    async (width) => {
      const context = await browser.newContext({ viewport: { width, height: 800 } });
      const requests: string[] = [];
      const cspViolations: string[] = [];
      await context.route('**/*', (route) => {
        const url = route.request().url();
        requests.push(url);
        // Anything not from the server itself is aborted (the assertion below names it).
        return url.startsWith('data:') || new URL(url).origin === server.url ? route.continue() : route.abort();
      });
      const p = await context.newPage();
      p.on('console', (m) => {
        if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text());
      });
      try {
        const seen: Record<string, Array<{ src: string; ok: boolean }>> = {};
        for (const path of ['/', ...slugs]) {
          expect((await p.goto(`${server.url}${path}`))?.status()).toBe(200);
          seen[path] = await imageReport(p);
        }
        // /admin: the operator signs in; the queue lists recent live tools with their images.
        await p.goto(`${server.url}/admin`);
        await p.getByLabel('Operator token').fill(server.adminToken!);
        await p.getByRole('button', { name: 'Sign in' }).click();
        await p.waitForURL(`${server.url}/admin`);
        expect(await p.textContent('main')).toContain('Pictured Tool');
        seen['/admin'] = await imageReport(p);

        for (const [path, images] of Object.entries(seen)) {
          expect(images.length, path).toBeGreaterThan(0);
          for (const image of images) {
            expect(image.ok, `${path}: ${image.src.slice(0, 80)}`).toBe(true);
            expect(image.src, path).toMatch(
              /^(\/media\/[0-9a-f]{64}\.(png|ico)|\/badge\/[a-z0-9-]+\.svg|data:image\/svg\+xml,.+)$/,
            );
          }
        }
        const all = Object.values(seen)
          .flat()
          .map((image) => image.src);
        expect(all).toContain(`/media/${sha(PNG)}.png`);
        expect(all).toContain(`/media/${sha(ICO)}.ico`);
        expect(all.some((src) => src.startsWith('data:image/svg+xml,'))).toBe(true); // the plain tool's placeholder
        expect(requests.filter((url) => !url.startsWith('data:') && new URL(url).origin !== server.url)).toEqual([]);
        expect(requests.some((url) => url.includes('/media/'))).toBe(true);
        expect(fixture.hits.filter((hit) => hit.headers['user-agent']?.includes('Chrome'))).toEqual([]);
        expect(cspViolations).toEqual([]);
      } finally {
        await context.close();
      }
    },
    120_000,
  );
});
