import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { startNodeServer, type NodeServer } from '../../../functions/node';
import { queryRows } from '../../../src/db/client';
import { expectNoAxeViolations } from '../../helpers/browser/axe';
import { expectFitsViewport } from '../../helpers/browser/viewport';
import { mailedCodeFor } from '../../helpers/mailed-code';
import { findChromium, launchLoopbackChromium } from '../../helpers/services/chromium';
import { requireService } from '../../helpers/services/require-service';
import { recordingQueue } from '../../helpers/stripe/payments-fixture';
import { moveSite } from '../../helpers/submission-states';

// /account/submissions/{site_id} in Chromium: every state at 1280 and 390 px (and the dark scheme) with axe-core
// and no sideways scroll; with JavaScript off, Retry, Pay now and a fresh checkout link work as plain forms and links.
const chromiumPath = findChromium();
const describeBrowser = requireService('Chromium', chromiumPath !== null, 'REQUIRE_BROWSER');
const ADMIN = 'browser-admin-token-0123456789abcdef';

describeBrowser('a submission’s page in Chromium', () => {
  let server: NodeServer;
  let browser: Browser;
  let dataDir: string;
  const offOrigin: string[] = [];
  const cspViolations: string[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tooldir-submission-browser-'));
    cpSync(inject('pgliteTemplate'), join(dataDir, 'pglite'), { recursive: true });
    // No pipeline runs: each submission is moved to the state a case shows (test/helpers/submission-states.ts).
    server = await startNodeServer(
      { HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent', ADMIN_TOKEN: ADMIN },
      { overrides: { queue: recordingQueue() }, localSweeper: false },
    );
    browser = await launchLoopbackChromium(chromiumPath!);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    expect(offOrigin).toEqual([]);
    expect(cspViolations).toEqual([]);
  });

  /** A browser profile of its own whose every request stays on our origin; CSP reports are collected. */
  async function profile(options: { javaScriptEnabled?: boolean } = {}): Promise<BrowserContext> {
    const context = await browser.newContext({ javaScriptEnabled: options.javaScriptEnabled ?? true });
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (new URL(url).origin === new URL(server.url).origin) return route.continue();
      offOrigin.push(url);
      return route.abort();
    });
    context.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text());
    });
    return context;
  }

  const api = (path: string, init: { method?: string; key?: string; json?: unknown } = {}) =>
    fetch(`${server.url}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        ...(init.key && { authorization: `Bearer ${init.key}` }),
        ...(init.json !== undefined && { 'content-type': 'application/json' }),
      },
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
    });

  /** An account with an API key (the operator API), signed in to a fresh page by its mailed code. */
  async function personWithPage(tier: 'none' | 'member', options: { javaScriptEnabled?: boolean } = {}) {
    const email = `person-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const account = (await (
      await api('/api/v1/admin/accounts', { method: 'POST', key: ADMIN, json: { email, tier } })
    ).json()) as { account_id: string };
    const { key } = (await (
      await api(`/api/v1/admin/accounts/${account.account_id}/keys`, { method: 'POST', key: ADMIN })
    ).json()) as { key: string };
    const context = await profile(options);
    const page = await context.newPage();
    await page.goto(`${server.url}/account`);
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.waitForURL(/\/account\/sign-in$/);
    await page.getByLabel('Code').fill(await mailedCodeFor(server.deps.db, email, page));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${server.url}/account`);
    return { key, page, context };
  }

  async function submit(key: string, json: { name: string; url?: string; plan?: string }) {
    const res = await api('/api/v1/submit-site', {
      method: 'POST',
      key,
      json: { url: `https://${crypto.randomUUID().slice(0, 8)}.example/`, ...json },
    });
    const body = (await res.json()) as { site_id: string; checkout_url?: string };
    return { status: res.status, siteId: body.site_id, checkoutUrl: body.checkout_url };
  }

  const open = (page: Page, siteId: string) => page.goto(`${server.url}/account/submissions/${siteId}`);

  /** axe-core and the width check at 1280 and 390 px in the light scheme, and at 390 px in the dark one. */
  async function checkEverywhere(page: Page, label: string) {
    for (const [width, height, scheme] of [
      [1280, 900, 'light'],
      [390, 844, 'light'],
      [390, 844, 'dark'],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.emulateMedia({ colorScheme: scheme });
      await expectFitsViewport(page, width);
      await expectNoAxeViolations(page);
      expect(await page.locator('h1').count(), label).toBe(1);
    }
    await page.emulateMedia({ colorScheme: 'light' });
  }

  it('the checks can fail: a page too wide and an image without a text alternative are caught', async () => {
    const context = await profile();
    const page = await context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.setContent(
      '<!doctype html><html lang="en"><title>t</title><main><h1>t</h1><img src="data:," width="500" height="10"></main></html>',
    );
    await expect(expectNoAxeViolations(page)).rejects.toThrow(/image-alt/);
    await expect(expectFitsViewport(page, 390)).rejects.toThrow(/px wide at 390 px/);
    await context.close();
  });

  it('every state, at 1280 and 390 px, has no axe-core violation and no sideways scroll', async () => {
    const { key, page } = await personWithPage('member');
    // Long unbroken words: the page must wrap them, not scroll.
    const long = (tag: string) =>
      `${tag}-${'Supercalifragilistic'.repeat(4)}-${crypto.randomUUID().slice(0, 6)}`.slice(0, 100);
    const longUrl = (tag: string) =>
      `https://${tag}-${crypto.randomUUID().slice(0, 8)}.example/${'very-long-path-segment'.repeat(8)}?q=${'x'.repeat(60)}`;

    const open1 = await submit(key, { name: long('Unpaid'), url: longUrl('unpaid'), plan: 'sponsored' });
    expect(open1.status).toBe(402);
    const expired = await submit(key, { name: long('Expired'), plan: 'sponsored' });
    await queryRows(
      server.deps.db,
      sql`UPDATE pending_submissions SET state = 'expired', expires_at = now() - interval '1 minute' WHERE id = ${expired.siteId}`,
    );
    const queuedName = long('Queued');
    const queued = await submit(key, { name: queuedName, url: longUrl('queued') });
    const failed = await submit(key, { name: long('Failed') });
    await moveSite(server.deps, failed.siteId, 'crawl_failed');
    const review = await submit(key, { name: long('Review') });
    await moveSite(server.deps, review.siteId, 'pending_review');
    const rejected = await submit(key, { name: long('Rejected') });
    await moveSite(server.deps, rejected.siteId, 'pending_review');
    expect(
      (
        await api(`/api/v1/admin/sites/${rejected.siteId}/review`, {
          method: 'POST',
          key: ADMIN,
          json: { decision: 'reject', reason: `Not an AI tool: ${'reasons'.repeat(20)}` },
        })
      ).status,
    ).toBe(200);
    const live = await submit(key, { name: long('Live') });
    await moveSite(server.deps, live.siteId, 'live');
    expect(
      (
        await api(`/api/v1/sites/${live.siteId}`, {
          method: 'PATCH',
          key,
          json: { description: 'A better description.' },
        })
      ).status,
    ).toBe(202);

    const cases: Array<[string, string, string]> = [
      ['pending_payment (open)', open1.siteId, '#pay-now'],
      ['pending_payment (expired)', expired.siteId, '#fresh-checkout'],
      ['queued', queued.siteId, '#queue'],
      ['crawl_failed', failed.siteId, '#retry'],
      ['pending_review', review.siteId, '#queue'],
      ['rejected', rejected.siteId, '#rejection-reason'],
      ['live', live.siteId, '#badge-snippet'],
    ];
    for (const [label, siteId, marker] of cases) {
      await open(page, siteId);
      expect(await page.locator(marker).count(), label).toBe(1);
      await checkEverywhere(page, label);
    }

    // The live page's copy button appears (its one hashed script ran under the CSP).
    await open(page, live.siteId);
    await expect.poll(() => page.locator('button[data-copy="badge-snippet"]').isVisible()).toBe(true);
    expect(await page.locator('#pending-edit').textContent()).toContain('waiting for review since');

    // The edit form's errors: the field marked, the summary announced.
    await page.getByLabel('New name').fill('x');
    await page.getByRole('button', { name: 'Suggest this edit' }).click();
    await expect.poll(() => page.locator('#error-summary').textContent()).toContain('The edit was not filed');
    expect(await page.getByLabel('New name').getAttribute('aria-invalid')).toBe('true');
    await checkEverywhere(page, 'edit form with errors');

    // The list on /account, with every state in it.
    await page.goto(`${server.url}/account`);
    expect(await page.locator('#submissions tbody tr').count()).toBe(cases.length);
    await checkEverywhere(page, '/account');
    await page.getByRole('link', { name: queuedName }).click();
    await page.waitForURL(`${server.url}/account/submissions/${queued.siteId}`);
  }, 180_000);

  it('without JavaScript: Pay now leads through the local checkout back to the page; Retry and a fresh link are plain forms', async () => {
    const { key, page, context } = await personWithPage('none', { javaScriptEnabled: false });

    // Pay now → the local checkout → Pay → the success page → Follow your submission → queued.
    const unpaid = await submit(key, { name: `No Script Pay ${crypto.randomUUID().slice(0, 6)}`, plan: 'featured' });
    await open(page, unpaid.siteId);
    await page.getByRole('link', { name: 'Pay now' }).click();
    await page.waitForURL(/\/checkout\/cs_local_/);
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(/\/checkout\/success\?session_id=/);
    expect(await page.locator('#status').getAttribute('data-status')).toBe('queued');
    await checkEverywhereWithoutScript(page);
    await page.getByRole('link', { name: 'Follow your submission' }).click();
    await page.waitForURL(`${server.url}/account/submissions/${unpaid.siteId}`);
    expect(await page.locator('#status').getAttribute('data-status')).toBe('queued');
    expect(
      await page.locator('#timeline li').evaluateAll((items) => items.map((li) => li.getAttribute('data-status'))),
    ).toEqual(['pending_payment', 'queued']);

    // An expired link: the button re-submits and lands on the new checkout, which pays for the same submission.
    const expired = await submit(key, { name: `No Script Expired ${crypto.randomUUID().slice(0, 6)}` });
    await queryRows(
      server.deps.db,
      sql`UPDATE pending_submissions SET state = 'expired', expires_at = now() - interval '1 minute' WHERE id = ${expired.siteId}`,
    );
    await open(page, expired.siteId);
    await page.getByRole('button', { name: 'Get a fresh checkout link' }).click();
    await page.waitForURL(/\/checkout\/cs_local_/);
    expect(page.url()).not.toBe(expired.checkoutUrl);
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(/\/checkout\/success\?session_id=/);
    await page.getByRole('link', { name: 'Follow your submission' }).click();
    await page.waitForURL(`${server.url}/account/submissions/${expired.siteId}`);
    expect(await page.locator('#status').getAttribute('data-status')).toBe('queued');

    // Retry a failed crawl: back in line; the cancel page leads back here too.
    await moveSite(server.deps, expired.siteId, 'crawl_failed');
    await open(page, expired.siteId);
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.waitForURL(`${server.url}/account/submissions/${expired.siteId}`);
    expect(await page.locator('#status').getAttribute('data-status')).toBe('queued');
    expect(await page.locator('#queue').textContent()).toMatch(/in line for crawling/);

    await page.goto(`${server.url}/checkout/cancelled?site_id=${expired.siteId}`);
    await checkEverywhereWithoutScript(page);
    await page.getByRole('link', { name: 'Back to your submission' }).click();
    await page.waitForURL(`${server.url}/account/submissions/${expired.siteId}`);
    await context.close();
  });

  /** axe-core needs script: the same page, opened again in a profile with it, at both widths. */
  async function checkEverywhereWithoutScript(page: Page) {
    const withScript = await browser.newContext();
    await withScript.addCookies(await page.context().cookies());
    const copy = await withScript.newPage();
    await copy.goto(page.url());
    await checkEverywhere(copy, page.url());
    await withScript.close();
  }
});
