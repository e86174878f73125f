import { sql } from 'drizzle-orm';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { startNodeServer, type NodeServer } from '../../../functions/node';
import { queryRows } from '../../../src/db/client';
import { expectNoAxeViolations } from '../../helpers/browser/axe';
import { expectFitsViewport } from '../../helpers/browser/viewport';
import { mailedCodeFor } from '../../helpers/mailed-code';
import { NARROW, startLoopbackBrowser, WIDE, type LoopbackBrowser } from '../../helpers/browser/loopback-browser';
import { findChromium } from '../../helpers/services/chromium';
import { requireService } from '../../helpers/services/require-service';

// /pricing and /submit in Debian's Chromium (playwright-core): signed out → sign-in by code → back with the plan
// kept → the form → the checkout, with and without JavaScript, at 1280 and 390 px, axe-core clean, no sideways
// scrolling; a double click on Submit makes one submission (issue 20, points 2 to 4).
const describeBrowser = requireService('Chromium', findChromium() !== null, 'REQUIRE_BROWSER');
describeBrowser('/pricing and /submit in Chromium', () => {
  let server: NodeServer;
  let chromium: LoopbackBrowser;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tooldir-browser-shop-'));
    cpSync(inject('pgliteTemplate'), join(dataDir, 'pglite'), { recursive: true });
    server = await startNodeServer(
      { HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
      { localSweeper: false },
    );
    chromium = await startLoopbackBrowser();
  });

  afterAll(async () => {
    await chromium?.close();
    await server?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /** A fresh profile whose every request must stay on loopback; CSP reports are collected. */
  const context = (options: { javaScriptEnabled?: boolean } = {}): Promise<BrowserContext> =>
    chromium.newContext(options);

  /**
   * axe-core and the viewport at both widths, in the light and the dark scheme. axe-core needs JavaScript in the
   * page (its run never settles without it), so a no-JS profile checks the viewport only: these pages carry no
   * script, so the JS-on run checks the very same documents.
   */
  async function checkPage(page: Page, javaScriptEnabled: boolean) {
    for (const size of [WIDE, NARROW]) {
      await page.setViewportSize(size);
      for (const colorScheme of javaScriptEnabled ? (['light', 'dark'] as const) : []) {
        await page.emulateMedia({ colorScheme });
        await expectNoAxeViolations(page);
      }
      await expectFitsViewport(page, size.width);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize(WIDE);
  }

  async function signInOnPage(page: Page, email: string) {
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Send code' }).click();
    await expect.poll(() => page.textContent('main')).toContain(`We sent a 6-digit code to ${email}`);
    await page.getByLabel('Code').fill(await mailedCodeFor(server.deps.db, email, page));
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  const accountIdOf = async (email: string) =>
    (await queryRows<{ id: string }>(server.deps.db, sql`SELECT id FROM accounts WHERE email = ${email}`))[0]!.id;

  for (const javaScriptEnabled of [true, false]) {
    it(`pricing → sign-up by code → the form with the plan kept → an error kept on the form → checkout (JavaScript ${javaScriptEnabled ? 'on' : 'off'})`, async () => {
      const ctx = await context({ javaScriptEnabled });
      const page = await ctx.newPage();
      await page.goto(`${server.url}/pricing`);
      await checkPage(page, javaScriptEnabled);
      expect(await page.locator('#plan-sponsored .price').textContent()).toBe('29.90 USD a month');

      await page.getByRole('link', { name: 'Submit with Featured' }).click();
      await page.waitForURL(/\/account\/sign-in\?next=/);
      expect(new URL(page.url()).searchParams.get('next')).toBe('/submit?plan=featured');
      expect(await page.textContent('#purpose')).toContain('Sign in to submit your tool');
      await checkPage(page, javaScriptEnabled);

      const email = `shop-${javaScriptEnabled ? 'js' : 'nojs'}-${crypto.randomUUID().slice(0, 6)}@example.com`;
      await signInOnPage(page, email);
      await page.waitForURL(`${server.url}/submit?plan=featured`);
      expect(await page.locator('#plan-featured').isChecked()).toBe(true);
      expect(await page.textContent('header.site nav')).toContain('Account');
      // The button names the step and the charge of the plan checked (CSS :has, with or without JavaScript), and the
      // money rule and the usual review time are stated before anyone pays.
      await expect.poll(() => page.getByRole('button', { name: 'Continue to payment – 19.90 USD' }).count()).toBe(1);
      await page.check('#plan-sponsored');
      await expect
        .poll(() => page.getByRole('button', { name: 'Continue to payment – 29.90 USD a month' }).count())
        .toBe(1);
      await page.check('#plan-featured');
      expect(await page.textContent('#refund-rule')).toBe(
        'If an editor rejects your tool before it ever goes live, your payment is refunded in full.',
      );
      expect(await page.textContent('#review-time')).toContain('Review');
      await checkPage(page, javaScriptEnabled);

      // An error comes back on the form, next to its field, with what was typed kept (and axe-clean).
      await page.getByLabel('Name').fill('Acme Writer');
      await page.getByLabel('Website address').fill('acme writer dot com');
      await page.locator('#category-writing').check();
      await page.getByRole('button', { name: 'Continue to payment – 19.90 USD' }).click();
      await expect
        .poll(() => page.locator('#url-error').textContent())
        .toBe("Enter the website's address, such as https://acme.com.");
      expect(await page.getByLabel('Website address').getAttribute('aria-invalid')).toBe('true');
      expect(await page.getByLabel('Name').inputValue()).toBe('Acme Writer');
      expect(await page.locator('#category-writing').isChecked()).toBe(true);
      expect(await page.locator('#plan-featured').isChecked()).toBe(true);
      expect(await page.locator('#error-summary').getAttribute('role')).toBe('alert');
      await checkPage(page, javaScriptEnabled);

      const url = `https://acme-writer-${crypto.randomUUID().slice(0, 6)}.example`;
      await page.getByLabel('Website address').fill(url);
      await page.getByRole('button', { name: 'Continue to payment – 19.90 USD' }).click();
      await page.waitForURL(/\/checkout\/cs_local_/);
      const [pending] = await queryRows<{ plan: string; categories: string[] }>(
        server.deps.db,
        sql`SELECT plan, categories FROM pending_submissions WHERE account_id = ${await accountIdOf(email)}`,
      );
      expect(pending).toEqual({ plan: 'featured', categories: ['writing'] });
      await ctx.close();
    }, 180_000);
  }

  it('a form sent twice makes one submission; a member goes straight to its page', async () => {
    const email = `member-${crypto.randomUUID().slice(0, 6)}@example.com`;
    const made = await fetch(`${server.url}/api/v1/admin/accounts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email, tier: 'member' }),
    });
    expect(made.status).toBe(201);
    const ctx = await context();
    const page = await ctx.newPage();
    await page.goto(`${server.url}/submit`);
    await signInOnPage(page, email);
    await page.waitForURL(`${server.url}/submit`);
    expect(await page.locator('.included').count()).toBe(1);
    await page.getByLabel('Name').fill(`Double ${crypto.randomUUID().slice(0, 6)}`);
    await page.getByLabel('Website address').fill(`https://double-${crypto.randomUUID().slice(0, 6)}.example`);
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/submit') posts.push(request.url());
    });
    // Two submissions of the same form 50 ms apart, as a double click that the browser does not swallow: the second
    // starts a new navigation while the first request is already on its way.
    await page.evaluate(() => {
      const form = document.querySelector<HTMLFormElement>('form[action="/submit"]')!;
      form.requestSubmit();
      setTimeout(() => form.requestSubmit(), 50);
    });
    // The first navigation is aborted by the second (waitForURL would see that abort): poll where the page ends.
    await expect.poll(() => page.url(), { timeout: 10_000 }).toMatch(/\/account\/submissions\/[0-9a-f-]{36}$/);
    const sites = await queryRows<{ id: string }>(
      server.deps.db,
      sql`SELECT id FROM sites WHERE account_id = ${await accountIdOf(email)}`,
    );
    expect(sites).toHaveLength(1);
    expect(page.url()).toBe(`${server.url}/account/submissions/${sites[0]!.id}`);
    expect(posts.length).toBe(2); // the browser did send the form twice
    await ctx.close();
  });

  it('stayed on loopback and broke no CSP rule', () => {
    expect(chromium.offLoopback).toEqual([]);
    expect(chromium.cspViolations).toEqual([]);
  });
});
