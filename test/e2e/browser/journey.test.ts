import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { startNodeServer, type NodeServer } from '../../../functions/node';
import { expectNoAxeViolations } from '../../helpers/browser/axe';
import { NARROW, startLoopbackBrowser, WIDE, type LoopbackBrowser } from '../../helpers/browser/loopback-browser';
import { expectFitsViewport } from '../../helpers/browser/viewport';
import { pngBytes } from '../../helpers/image-bytes';
import { mailedCodeFor } from '../../helpers/mailed-code';
import { findChromium } from '../../helpers/services/chromium';
import { requireService } from '../../helpers/services/require-service';
import { simulatedNetwork } from '../../helpers/simulated-network';

// Issue 20's journeys, as a new person takes them in Debian's Chromium against the real Node server on embedded
// defaults (PGlite, local checkout, in-process queue, auto-approve): home → Submit a tool → sign-up by e-mail code
// → the form → checkout → Pay → progress → live → the account lists it once; the same without JavaScript; a
// membership bought from /account, then a submission within its quota with no payment. Every page on the way is
// checked at 1280 and 390 px (no sideways scroll) and, where JavaScript runs, with axe-core in both colour schemes.
// The crawl reaches the submitted sites through a simulated network: nothing leaves loopback.

const describeBrowser = requireService('Chromium', findChromium() !== null, 'REQUIRE_BROWSER');

describeBrowser('buying a listing on the website, in Chromium', () => {
  let server: NodeServer;
  let chromium: LoopbackBrowser;
  let dataDir: string;
  const dns: Record<string, readonly string[]> = {};
  const pages: Record<string, () => Response> = {};
  const network = simulatedNetwork({ dns, pages });

  /** A public-looking site the crawler can reach (only through the simulated network). */
  function toolSite(tag: string, name: string): string {
    const host = `${tag}-${crypto.randomUUID().slice(0, 6)}.example`;
    dns[host] = ['93.184.216.34'];
    const html = `<!doctype html><html lang="en"><head><title>${name}</title><meta name="description" content="${name} drafts release notes from your commits.">
<link rel="icon" href="/icon.png"></head><body><h1>${name}</h1></body></html>`;
    pages[`https://${host}/`] = () => new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8' } });
    pages[`https://${host}/icon.png`] = () =>
      new Response(Buffer.from(pngBytes(tag.length)), { headers: { 'content-type': 'image/png' } });
    return `https://${host}/`;
  }

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tooldir-journey-'));
    cpSync(inject('pgliteTemplate'), join(dataDir, 'pglite'), { recursive: true });
    server = await startNodeServer(
      { HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
      { overrides: { crawl: network } },
    );
    chromium = await startLoopbackBrowser();
  });

  afterAll(async () => {
    await chromium?.close();
    await server?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /** The page as it is now: no sideways scroll at 390 and 1280 px; with JavaScript, axe-core light and dark. */
  async function check(page: Page, javaScript: boolean) {
    for (const size of [NARROW, WIDE]) {
      await page.setViewportSize(size);
      await expectFitsViewport(page, size.width);
      if (!javaScript) continue;
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        await expectNoAxeViolations(page);
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
  }

  /** On the sign-in page: a wrong code first (its error is checked too), then the mailed one. */
  async function signUp(page: Page, email: string, javaScript: boolean) {
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Send code' }).click();
    await expect.poll(() => page.textContent('main')).toContain(`We sent a 6-digit code to ${email}`);
    await check(page, javaScript);
    const code = await mailedCodeFor(server.deps.db, email, page);
    await page.getByLabel('Code').fill(code === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.textContent('main')).toContain('That code is not right');
    await check(page, javaScript);
    await page.getByLabel('Code').fill(code);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  /** Reloads the submission's page until its status is `status` (the in-process queue crawls and reviews). */
  async function waitForStatus(page: Page, status: string) {
    await expect
      .poll(
        async () => {
          await page.reload();
          return page.getAttribute('#status', 'data-status');
        },
        { timeout: 20_000, interval: 300 },
      )
      .toBe(status);
  }

  for (const javaScript of [true, false]) {
    it(`home → Submit → sign-up → the form → checkout → Pay → progress → live, listed once on /account (JavaScript ${javaScript ? 'on' : 'off'})`, async () => {
      const context = await chromium.newContext({ javaScriptEnabled: javaScript });
      const page = await context.newPage();
      const name = `Changelog Scribe ${javaScript ? 'JS' : 'Plain'} ${crypto.randomUUID().slice(0, 4)}`;
      const url = toolSite(javaScript ? 'scribe' : 'plain-scribe', name);

      await page.goto(`${server.url}/`);
      await check(page, javaScript);
      await page.locator('header.site').getByRole('link', { name: 'Submit a tool' }).click();
      await page.waitForURL(/\/account\/sign-in\?next=%2Fsubmit/);
      await check(page, javaScript);
      await signUp(page, `maker-${crypto.randomUUID().slice(0, 8)}@example.com`, javaScript);

      await page.waitForURL(`${server.url}/submit`);
      expect(await page.textContent('header.site nav')).toContain('Account');
      await check(page, javaScript);
      await page.getByLabel('Name').fill(name);
      await page.getByLabel('Website address').fill(url);
      await page.getByLabel('Writing').check();
      expect(await page.textContent('#wait')).toMatch(/How long it takes/);
      await page.getByRole('button', { name: 'Submit', exact: true }).click();

      await page.waitForURL(/\/checkout\/cs_local_/);
      expect(await page.textContent('main')).toContain(name);
      await check(page, javaScript);
      await page.getByRole('button', { name: 'Pay' }).click();
      await page.waitForURL(/\/checkout\/success/);
      await check(page, javaScript);
      await page.getByRole('link', { name: 'Follow your submission' }).click();

      await page.waitForURL(/\/account\/submissions\/[0-9a-f-]{36}$/);
      await check(page, javaScript);
      await waitForStatus(page, 'live');
      await check(page, javaScript);
      const liveUrl = await page.getAttribute('#live-link', 'href');
      expect(liveUrl).toMatch(/\/tools\/changelog-scribe-/);

      await page.goto(liveUrl!);
      expect(await page.textContent('h1')).toContain(name);
      expect(await page.textContent('main')).toContain('Writing');
      await check(page, javaScript);

      await page.goto(`${server.url}/account`);
      await check(page, javaScript);
      expect(await page.locator('#submissions tbody tr', { hasText: name }).count()).toBe(1);
      expect(network.violations).toEqual([]);
      await context.close();
    });
  }

  it('a membership bought from /account, then a submission within its quota that needs no payment', async () => {
    const context = await chromium.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/account`);
    await page.waitForURL(/\/account\/sign-in/);
    await signUp(page, `member-${crypto.randomUUID().slice(0, 8)}@example.com`, true);
    await page.waitForURL(`${server.url}/account`);
    await check(page, true);

    await page.getByRole('link', { name: 'Become a member' }).click();
    await page.waitForURL(/\/account\/membership\?tier=member$/);
    await check(page, true);
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await page.waitForURL(/\/checkout\/cs_local_/);
    await check(page, true);
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(/\/checkout\//);
    await check(page, true);
    await page.goto(`${server.url}/account`);
    expect(await page.textContent('main')).toMatch(/0 of 5/);

    const name = `Member Tool ${crypto.randomUUID().slice(0, 4)}`;
    await page.locator('header.site').getByRole('link', { name: 'Submit a tool' }).click();
    await page.waitForURL(`${server.url}/submit`);
    expect(await page.textContent('main')).toContain('included');
    await page.getByLabel('Name').fill(name);
    await page.getByLabel('Website address').fill(toolSite('member-tool', name));
    await page.getByRole('button', { name: 'Submit', exact: true }).click();
    // Covered by the membership: straight to the submission's page, never to a checkout.
    await page.waitForURL(/\/account\/submissions\/[0-9a-f-]{36}$/);
    expect(['queued', 'crawling', 'pending_review', 'live']).toContain(
      await page.getAttribute('#status', 'data-status'),
    );
    await check(page, true);
    await page.goto(`${server.url}/account`);
    expect(await page.textContent('main')).toMatch(/1 of 5/);
    await context.close();
  });

  it('stayed on loopback and broke no CSP rule', () => {
    expect(chromium.offLoopback).toEqual([]);
    expect(chromium.cspViolations).toEqual([]);
  });
});
