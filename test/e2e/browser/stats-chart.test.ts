// The statistics chart on a live tool's page /account/submissions/{site_id} in a real browser (Debian's Chromium via
// playwright-core, the real Node entry, signed in by a mailed code): with 30 days of numbers, at 1280 px and 390 px,
// light and dark, it fits the screen, breaks no CSP rule and has no axe-core violation; the SVG is drawn at a
// readable size in the stylesheet's colours, and its table of every day is in the accessibility tree.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startNodeServer, type NodeServer } from '../../../functions/node';
import { queryRows } from '../../../src/db/client';
import { rollUpStats } from '../../../src/stats/roll-up';
import { addDays, utcDay } from '../../../src/stats/utc-day';
import { findChromium, launchLoopbackChromium } from '../../helpers/services/chromium';
import { requireService } from '../../helpers/services/require-service';
import { expectNoAxeViolations } from '../../helpers/browser/axe';
import { expectFitsViewport } from '../../helpers/browser/viewport';
import { mailedCodeFor } from '../../helpers/mailed-code';
import { recordingQueue } from '../../helpers/stripe/payments-fixture';
import { moveSite } from '../../helpers/submission-states';

const CHROMIUM = findChromium();
const describeBrowser = requireService('Chromium', CHROMIUM !== null, 'REQUIRE_BROWSER');
const ADMIN = 'stats-browser-admin-token-0123456789';

describeBrowser('the statistics chart of a submission page in Chromium', () => {
  let server: NodeServer;
  let browser: Browser;
  let dataDir: string;
  let page: Page;
  let siteId: string;
  const problems: string[] = [];

  const api = async (path: string, init: { method?: string; key?: string; json?: unknown } = {}) =>
    (await fetch(`${server.url}${path}`, {
      method: init.method ?? 'POST',
      headers: {
        ...(init.key && { authorization: `Bearer ${init.key}` }),
        ...(init.json !== undefined && { 'content-type': 'application/json' }),
      },
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
    }).then((r) => r.json())) as Record<string, string>;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tooldir-stats-browser-'));
    cpSync(inject('pgliteTemplate'), join(dataDir, 'pglite'), { recursive: true });
    server = await startNodeServer(
      { HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent', ADMIN_TOKEN: ADMIN },
      { overrides: { queue: recordingQueue() }, localSweeper: false },
    );
    const email = `charted-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const { account_id } = await api('/api/v1/admin/accounts', { key: ADMIN, json: { email, tier: 'member' } });
    const { key } = await api(`/api/v1/admin/accounts/${account_id}/keys`, { key: ADMIN });
    const submitted = await api('/api/v1/submit-site', {
      key,
      json: {
        name: 'Charted Tool with a rather long name for a phone',
        url: `https://charted-${crypto.randomUUID().slice(0, 8)}.example/`,
      },
    });
    siteId = submitted.site_id!;
    await moveSite(server.deps, siteId, 'live');
    const [{ slug }] = (await queryRows<{ slug: string }>(
      server.deps.db,
      sql`SELECT slug FROM sites WHERE id = ${siteId}::uuid`,
    )) as [{ slug: string }];
    // 30 days of numbers as the engine holds them, one day without any view, then the roll-up.
    const today = utcDay(new Date());
    const days = Array.from({ length: 30 }, (_, i) => addDays(today, -i));
    for (const [i, day] of days.entries()) {
      const views = i % 7 === 3 ? 0 : 20 + ((i * 37) % 180);
      await queryRows(
        server.deps.db,
        sql`INSERT INTO stat_counters (day, slug, counter, n) VALUES (${day}::date, ${slug}, 'clicks', ${1 + (i % 9)}),
          (${day}::date, ${slug}, 'impressions_standard', ${300 + i})${views ? sql`, (${day}::date, ${slug}, 'views', ${views})` : sql``}`,
      );
    }
    await rollUpStats(server.deps, { days });

    browser = await launchLoopbackChromium(CHROMIUM!);
    const context = await browser.newContext();
    await context.route('**/*', (route) =>
      new URL(route.request().url()).origin === server.url
        ? route.continue()
        : (problems.push(route.request().url()), route.abort()),
    );
    page = await context.newPage();
    page.on('console', (message) => problems.push(message.text()));
    page.on('pageerror', (error) => problems.push(String(error)));
    ownerEmail = email;
  }, 120_000);

  let ownerEmail = '';
  let signedIn = false;
  /** Signs the page in once, by the code mailed to the owner (mailedCodeFor polls: it runs inside a test). */
  async function signIn() {
    if (signedIn) return;
    await page.goto(`${server.url}/account`);
    await page.getByLabel('E-mail').fill(ownerEmail);
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.waitForURL(/\/account\/sign-in$/);
    await page.getByLabel('Code').fill(await mailedCodeFor(server.deps.db, ownerEmail, page));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${server.url}/account`);
    signedIn = true;
  }

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  for (const width of [1280, 390]) {
    for (const colorScheme of ['light', 'dark'] as const) {
      it(`is readable and accessible at ${width} px (${colorScheme})`, async () => {
        await signIn();
        await page.setViewportSize({ width, height: 900 });
        await page.emulateMedia({ colorScheme });
        const response = await page.goto(`${server.url}/account/submissions/${siteId}`);
        expect(response?.status()).toBe(200);
        await expectFitsViewport(page, width);
        await expectNoAxeViolations(page);
        expect(problems).toEqual([]);

        const box = await page.locator('.stats-chart svg').boundingBox();
        expect(box!.width).toBeGreaterThan(width === 390 ? 290 : 500);
        expect(box!.width).toBeLessThanOrEqual(641);
        expect(await page.locator('.stats-chart rect').count()).toBe(30 + 26); // a bar for every day's clicks and for the 26 days with views
        // The bars take the stylesheet's colours (a stylesheet the CSP blocked would leave them black).
        const fill = await page
          .locator('.stats-chart rect.bar-views')
          .first()
          .evaluate((el) => getComputedStyle(el).fill);
        expect(fill).not.toBe('rgb(0, 0, 0)');
        const snapshot = await page.locator('.stats-chart').ariaSnapshot();
        expect(snapshot).toContain('img "Views and clicks per day');
        expect(snapshot).toMatch(/table "Statistics per day/);
        expect(await page.locator('.stats-chart table tbody tr').count()).toBe(30);
        expect(await page.getByText('Click-through rate:').isVisible()).toBe(true);
        // STATS_CHART_SCREENSHOTS=dir keeps a picture of each case for a person to look at.
        const dir = process.env.STATS_CHART_SCREENSHOTS;
        if (dir)
          await page.locator('.stats-chart').screenshot({ path: join(dir, `stats-chart-${width}-${colorScheme}.png`) });
      });
    }
  }
});
