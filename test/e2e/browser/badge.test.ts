import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { startNodeServer, type NodeServer } from '../../../functions/node';
import { seedTools } from '../../helpers/live-tools';
import { findChromium, launchLoopbackChromium } from '../../helpers/services/chromium';
import { requireService } from '../../helpers/services/require-service';

// A tool page in Chromium: the badge renders as an image, the copy button (revealed by the page's one hashed
// script) puts the embed snippet on the clipboard, and nothing violates the page's CSP or leaves our origin.
const chromiumPath = findChromium();
const describeBrowser = requireService('Chromium', chromiumPath !== null, 'REQUIRE_BROWSER');

describeBrowser('the badge on a tool page, in Chromium', () => {
  let server: NodeServer;
  let browser: Browser;
  let context: BrowserContext;
  let dataDir: string;
  const otherOrigins: string[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tooldir-badge-browser-'));
    cpSync(inject('pgliteTemplate'), join(dataDir, 'pglite'), { recursive: true });
    server = await startNodeServer({ HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    browser = await launchLoopbackChromium(chromiumPath!);
    context = await browser.newContext();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(server.url).origin });
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (new URL(url).origin === new URL(server.url).origin) return route.continue();
      otherOrigins.push(url);
      return route.abort();
    });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('shows the badge image and copies the snippet with one click, with no CSP violation', async () => {
    const [tool] = await seedTools(server.deps.db, [{ name: 'Badge In Browser', isFeature: true }], server.deps.origin);
    const page = await context.newPage();
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    await page.goto(`${server.url}/tools/${tool!.slug}`);

    const badge = page.locator('section.embed img');
    await expect
      .poll(() => badge.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(100);

    // Located by its attribute: its accessible name changes to "Copied" on click.
    const copy = page.locator('button[data-copy]');
    expect(await copy.isVisible()).toBe(true);
    await copy.click();
    await expect.poll(() => copy.textContent()).toBe('Copied');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(
      `<a href="${server.deps.origin}/tools/${tool!.slug}"><img src="${server.deps.origin}/badge/${tool!.slug}.svg" alt="Featured on tooldir" height="28"></a>`,
    );

    expect(violations).toEqual([]);
    expect(otherOrigins).toEqual([]);
    await page.close();
  }, 120_000);
});
