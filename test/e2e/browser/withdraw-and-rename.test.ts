import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { startNodeServer, type NodeServer } from '../../../functions/node';
import { expectNoAxeViolations } from '../../helpers/browser/axe';
import { expectFitsViewport } from '../../helpers/browser/viewport';
import { mailedCodeFor } from '../../helpers/mailed-code';
import { findChromium, launchLoopbackChromium } from '../../helpers/services/chromium';
import { requireService } from '../../helpers/services/require-service';
import { recordingQueue } from '../../helpers/stripe/payments-fixture';
import { moveSite } from '../../helpers/submission-states';

// Withdrawal and renames in Chromium (docs/pipeline.md "Withdrawal", "Renames"): the submission
// page's Withdraw… leads to a confirmation page whose button withdraws; the tool's page then answers 410 with a short
// note; a renamed tool's old address lands on its new page. Each page at 1280 and 390 px (and dark) with axe-core.
// WITHDRAW_SCREENSHOTS=docs/screenshots keeps the confirmation and the 410 page at both widths.
const chromiumPath = findChromium();
const describeBrowser = requireService('Chromium', chromiumPath !== null, 'REQUIRE_BROWSER');
const ADMIN = 'browser-admin-token-withdraw-0123456789';

describeBrowser('withdrawal and renames in Chromium', () => {
  let server: NodeServer;
  let browser: Browser;
  let dataDir: string;
  const offOrigin: string[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tooldir-withdraw-browser-'));
    cpSync(inject('pgliteTemplate'), join(dataDir, 'pglite'), { recursive: true });
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
  });

  async function profile(): Promise<BrowserContext> {
    const context = await browser.newContext();
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (new URL(url).origin === new URL(server.url).origin) return route.continue();
      offOrigin.push(url);
      return route.abort();
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
      redirect: 'manual',
    });

  async function memberWithPage() {
    const email = `maker-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const account = (await (
      await api('/api/v1/admin/accounts', { method: 'POST', key: ADMIN, json: { email, tier: 'member' } })
    ).json()) as { account_id: string };
    const { key } = (await (
      await api(`/api/v1/admin/accounts/${account.account_id}/keys`, { method: 'POST', key: ADMIN })
    ).json()) as { key: string };
    const context = await profile();
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

  /** A live tool of `key`'s account, through submit and the pipeline's own path; answers its id and slug. */
  async function liveTool(key: string, name: string) {
    const res = await api('/api/v1/submit-site', {
      method: 'POST',
      key,
      json: { name, url: `https://${crypto.randomUUID().slice(0, 8)}.example/` },
    });
    const { site_id } = (await res.json()) as { site_id: string };
    await moveSite(server.deps, site_id, 'live');
    const record = (await (await api(`/api/v1/sites/${site_id}`, { key })).json()) as { live_url: string };
    return { siteId: site_id, slug: record.live_url.split('/tools/')[1]! };
  }

  async function checkEverywhere(page: Page, label: string, shot?: string) {
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
      const dir = process.env.WITHDRAW_SCREENSHOTS;
      if (dir && shot && scheme === 'light')
        await page.screenshot({ path: join(dir, `${shot}-${width}.png`), fullPage: true });
    }
    await page.emulateMedia({ colorScheme: 'light' });
  }

  it('withdraws after a confirmation (plain link and form); the page then answers 410 with a note', async () => {
    const { key, page, context } = await memberWithPage();
    const name = `Parchment Pilot ${crypto.randomUUID().slice(0, 6)}`;
    const tool = await liveTool(key, name);
    await page.goto(`${server.url}/account/submissions/${tool.siteId}`);
    await checkEverywhere(page, 'live submission with Withdraw…');

    await page.getByRole('link', { name: 'Withdraw…' }).click();
    await page.waitForURL(`${server.url}/account/submissions/${tool.siteId}/withdraw`);
    expect(await page.locator('h1').textContent()).toBe(`Withdraw ${name}?`);
    await checkEverywhere(page, 'confirmation', 'withdraw-confirm');
    // "Keep it listed" goes back and changes nothing.
    await page.getByRole('link', { name: 'Keep it listed' }).click();
    await page.waitForURL(`${server.url}/account/submissions/${tool.siteId}`);
    expect((await api(`/tools/${tool.slug}`)).status).toBe(200);

    await page.getByRole('link', { name: 'Withdraw…' }).click();
    await page.getByRole('button', { name: 'Yes, withdraw it' }).click();
    await page.waitForURL(`${server.url}/account/submissions/${tool.siteId}#withdrawn`);
    expect(await page.locator('#withdrawn').textContent()).toContain('You withdrew this listing');
    expect(await page.locator('#timeline li').last().textContent()).toContain('withdrawn by its owner');
    expect(await page.locator('#withdraw-start').count()).toBe(0);
    await checkEverywhere(page, 'withdrawn submission');

    const response = await page.goto(`${server.url}/tools/${tool.slug}`);
    expect(response!.status()).toBe(410);
    expect(await page.locator('h1').textContent()).toBe(`${name} is no longer listed`);
    await checkEverywhere(page, '410 page', 'tool-withdrawn');
    // Search finds nothing of it.
    await page.goto(`${server.url}/?q=${encodeURIComponent(name)}`);
    expect(await page.content()).not.toContain(`/tools/${tool.slug}"`);
    await context.close();
  }, 180_000);

  it("a renamed tool's old address lands on its new page", async () => {
    const { key, page, context } = await memberWithPage();
    const tool = await liveTool(key, `Old Quill ${crypto.randomUUID().slice(0, 6)}`);
    const newName = `New Quill ${crypto.randomUUID().slice(0, 6)}`;
    const filed = (await (
      await api(`/api/v1/sites/${tool.siteId}`, { method: 'PATCH', key, json: { name: newName } })
    ).json()) as { pending_edit: { edit_id: string } };
    expect(
      (
        await api(`/api/v1/admin/edits/${filed.pending_edit.edit_id}/review`, {
          method: 'POST',
          key: ADMIN,
          json: { decision: 'approve' },
        })
      ).status,
    ).toBe(200);
    const response = await page.goto(`${server.url}/tools/${tool.slug}`);
    expect(response!.status()).toBe(200);
    expect(page.url()).toBe(`${server.url}/tools/${newName.toLowerCase().replace(/ /g, '-')}`);
    expect(await page.locator('h1').textContent()).toContain(newName);
    await checkEverywhere(page, 'renamed tool page');
    await context.close();
  }, 120_000);
});
