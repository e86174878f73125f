import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { startNodeServer, type NodeServer } from '../../../functions/node';
import { REFERENCE_UI_PATH } from '../../../functions/v1/reference-ui';
import { findChromium, launchLoopbackChromium } from '../../helpers/services/chromium';
import { requireService } from '../../helpers/services/require-service';

// The API reference in Chromium with every request to anything but the server refused (docs/mcp-and-search.md
// "The API reference"): our page /api/v1/docs works with JavaScript off (contents, anchors, a "Try it" form), and
// Scalar's explorer at /api/v1/docs/explorer renders from our origin alone, with no attempt to reach another
// origin and no Content-Security-Policy violation (no eval, no fonts, no telemetry, nothing blocked).
const chromiumPath = findChromium();
const describeBrowser = requireService('Chromium', chromiumPath !== null, 'REQUIRE_BROWSER');

describeBrowser('API reference in Chromium, offline', () => {
  let server: NodeServer;
  let browser: Browser;
  let context: BrowserContext;
  let dataDir: string;
  let origin: string;
  const served: string[] = [];
  const otherOrigins: string[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tooldir-docs-browser-'));
    cpSync(inject('pgliteTemplate'), join(dataDir, 'pglite'), { recursive: true });
    server = await startNodeServer({ HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    origin = new URL(server.url).origin;
    browser = await launchLoopbackChromium(chromiumPath!);
    context = await browser.newContext();
    // Offline but for the server: every request to another origin (even another loopback port) is recorded and aborted.
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (new URL(url).origin === origin) {
        served.push(new URL(url).pathname);
        return route.continue();
      }
      otherOrigins.push(url);
      return route.abort();
    });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /** A page that records every CSP violation, both as the DOM event and as Chromium's console report. */
  async function openRecordingPage(): Promise<{ page: Page; violations: () => Promise<string[]> }> {
    const page = await context.newPage();
    const console: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) console.push(m.text());
    });
    await page.addInitScript(() => {
      const seen: string[] = [];
      (globalThis as unknown as { __violations: string[] }).__violations = seen;
      document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.effectiveDirective} ${e.blockedURI}`));
    });
    const violations = async () => [
      ...(await page.evaluate(() => (globalThis as unknown as { __violations: string[] }).__violations)),
      ...console,
    ];
    return { page, violations };
  }

  it('the reference page works without JavaScript: contents, anchors and a "Try it" form that reaches the API', async () => {
    const noScript = await browser.newContext({ javaScriptEnabled: false });
    await noScript.route('**/*', (route) =>
      new URL(route.request().url()).origin === origin
        ? route.continue()
        : (otherOrigins.push(route.request().url()), route.abort()),
    );
    const page = await noScript.newPage();
    await page.goto(`${server.url}/api/v1/docs`);
    await page
      .getByRole('navigation', { name: 'Contents' })
      .getByRole('link', { name: /POST \/api\/v1\/submit-site/ })
      .click();
    expect(new URL(page.url()).hash).toBe('#submitSite');
    expect(await page.locator('#submitSite').isVisible()).toBe(true);
    expect(await page.getByRole('heading', { name: 'Submit a tool', level: 3, exact: true }).count()).toBe(1);
    // A response body opens as a disclosure, no script needed.
    const body = page
      .locator('section.op', { has: page.locator('#submitSite') })
      .locator('details')
      .first();
    await body.locator('summary').click();
    expect(await body.locator('ul.fields').first().isVisible()).toBe(true);
    // The curl command is there to select; its copy button stays hidden without the script.
    expect(await page.locator('#curl-submitSite').textContent()).toMatch(/^curl -X POST /);
    expect(await page.locator('button[data-copy="curl-submitSite"]').isVisible()).toBe(false);
    expect(await page.getByRole('link', { name: 'Interactive explorer (Scalar)' }).getAttribute('href')).toBe(
      '/api/v1/docs/explorer',
    );
    // A plain GET form: through /api/v1/docs/try (303) to the operation itself, whose JSON the browser shows.
    const answered = page.waitForResponse(`${server.url}/api/v1/categories`);
    await page.getByRole('button', { name: 'Send GET /api/v1/categories' }).click();
    const answer = await answered;
    expect(answer.status()).toBe(200);
    expect(await answer.json()).toHaveProperty('categories');
    expect(page.url()).toBe(`${server.url}/api/v1/categories`);
    await noScript.close();
  });

  it('copies a curl command with JavaScript on', async () => {
    const page = await context.newPage();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    await page.goto(`${server.url}/api/v1/docs#getTool`);
    const copy = page.locator('button[data-copy="curl-getTool"]');
    await copy.click();
    await expect.poll(() => copy.textContent()).toBe('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      await page.locator('#curl-getTool').textContent(),
    );
    await page.close();
  });

  it('the explorer renders the submit operation from our origin alone: no request elsewhere, no CSP violation', async () => {
    const { page, violations } = await openRecordingPage();
    await page.goto(`${server.url}/api/v1/docs/explorer`);

    // The operation's summary in the sidebar, then its page with method and path.
    const submit = page.getByText('Submit a tool', { exact: true }).first();
    await expect.poll(() => submit.isVisible(), { timeout: 20_000 }).toBe(true);
    await submit.click();
    await expect
      .poll(() => page.locator('body').innerText(), { timeout: 20_000 })
      .toMatch(/POST\s*\/api\/v1\/submit-site/);

    // "Test Request" talks to this server directly (no proxy): the unauthenticated call gets our 401.
    await page
      .getByRole('button', { name: /Test Request/i })
      .first()
      .click();
    const send = page.getByRole('button', { name: /^Send/ }).first();
    await expect.poll(() => send.isVisible(), { timeout: 20_000 }).toBe(true);
    const sent = page.waitForResponse(
      (r) => r.url() === `${server.url}/api/v1/submit-site` && r.request().method() === 'POST',
    );
    await send.click();
    expect((await sent).status()).toBe(401);

    expect(served).toEqual(
      expect.arrayContaining([
        '/api/v1/docs/explorer',
        REFERENCE_UI_PATH,
        '/api/v1/openapi.json',
        '/api/v1/submit-site',
      ]),
    );
    expect(otherOrigins).toEqual([]);
    expect(await violations()).toEqual([]);
    await page.close();
  });

  it('would see a leak: both recorders are live (the policy refuses another origin, the route aborts it)', async () => {
    const { page, violations } = await openRecordingPage();
    await page.goto(`${server.url}/api/v1/docs/explorer`);
    await page.evaluate(() => {
      const img = document.createElement('img');
      img.src = 'https://fonts.scalar.com/inter-latin.woff2';
      document.body.appendChild(img);
    });
    await expect
      .poll(violations)
      .toEqual([
        'img-src https://fonts.scalar.com/inter-latin.woff2',
        expect.stringMatching(
          /^Loading the image 'https:\/\/fonts\.scalar\.com\/inter-latin\.woff2' violates .*img-src/,
        ),
      ]);
    // Only zod's probe is answered before the policy (explorer-page.ts): any other code from a string is still refused
    // by the policy and reported.
    // (From a task of the page's own, a message handler: code evaluated by the test driver itself is exempt.)
    const evaluated = await page.evaluate(
      () =>
        new Promise<string>((resolve) => {
          addEventListener(
            'message',
            () => {
              try {
                resolve(String(new Function('return 41 + 1')()));
              } catch (error) {
                resolve((error as Error).name);
              }
            },
            { once: true },
          );
          postMessage('try eval', '*');
        }),
    );
    expect(evaluated).toBe('EvalError');
    await expect
      .poll(async () => (await violations()).filter((v) => v.startsWith('script-src eval')))
      .toEqual(['script-src eval']);
    // A navigation is not the page's to police; the route sees it (another loopback origin, so still no traffic).
    const before = otherOrigins.length;
    await page.goto(`http://localhost:${new URL(server.url).port}/api/v1/docs/explorer`).catch(() => {});
    expect(otherOrigins.slice(before)).toEqual([`http://localhost:${new URL(server.url).port}/api/v1/docs/explorer`]);
    await page.close();
  });
});
