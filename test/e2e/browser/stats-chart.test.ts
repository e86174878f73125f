// The statistics chart of a submission page in a real browser (Debian's Chromium via playwright-core, the real
// Node entry): the section rendered inside the account area's page shell, at 1280 px and 390 px, light and dark,
// fits the screen, runs no script, breaks no CSP rule and has no axe-core violation; the SVG is drawn at a
// readable size and its table is in the accessibility tree. Until the submission page mounts it, a test-only route
// renders the section the way that page will (renderPage of functions/pages/account/layout.ts).
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { html } from 'hono/html';
import { startNodeServer, type NodeServer } from '../../../functions/node';
import { renderPage } from '../../../functions/pages/account/layout';
import { statsChartSection } from '../../../functions/pages/account/stats-chart';
import { getSiteStats } from '../../../src/stats/site-stats';
import { rollUpStats } from '../../../src/stats/roll-up';
import { addDays, utcDay } from '../../../src/stats/utc-day';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../../src/db/client';
import { findChromium, launchLoopbackChromium } from '../../helpers/services/chromium';
import { requireService } from '../../helpers/services/require-service';
import { expectNoAxeViolations } from '../../helpers/browser/axe';
import { expectFitsViewport } from '../../helpers/browser/viewport';
import { seedOwnedTool } from '../../helpers/owned-tools';

const CHROMIUM = findChromium();
const describeBrowser = requireService('Chromium', CHROMIUM !== null, 'REQUIRE_BROWSER');

describeBrowser('the statistics chart in Chromium', () => {
  let server: NodeServer;
  let browser: Browser;
  let dataDir: string;
  let siteId: string;
  let accountId: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tooldir-stats-browser-'));
    cpSync(inject('pgliteTemplate'), join(dataDir, 'pglite'), { recursive: true });
    server = await startNodeServer(
      { HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
      {
        localSweeper: false,
        app: {
          extraRoutes: (app) =>
            app.get('/test/stats-chart', async (c) => {
              const stats = await getSiteStats({ deps: c.get('deps'), actor: { accountId, keyId: 'test', email: 'owner@example.com' }, input: { site_id: siteId } });
              return renderPage(c, {
                title: 'A tool with a rather long name for a small screen',
                signedIn: { email: 'owner@example.com', csrfToken: 'x'.repeat(32) },
                body: html`<p>The submission's other sections come first.</p>${statsChartSection(stats)}`,
              });
            }),
        },
      },
    );
    const owner = await queryRows<{ id: string }>(server.deps.db, sql`INSERT INTO accounts (email) VALUES ('owner@example.com') RETURNING id`);
    accountId = owner[0]!.id;
    const tool = await seedOwnedTool(server.deps.db, accountId, { name: 'Charted Tool' });
    siteId = tool.id;
    const today = utcDay(new Date());
    const days = Array.from({ length: 30 }, (_, i) => addDays(today, -i));
    for (const [i, day] of days.entries()) {
      const views = i % 7 === 3 ? 0 : 20 + ((i * 37) % 180);
      await queryRows(
        server.deps.db,
        sql`INSERT INTO stat_counters (day, slug, counter, n) VALUES (${day}::date, ${tool.slug}, 'views', ${views + 1}),
          (${day}::date, ${tool.slug}, 'clicks', ${1 + (i % 9)}), (${day}::date, ${tool.slug}, 'impressions_standard', ${300 + i})`,
      );
    }
    await rollUpStats(server.deps, { days });
    browser = await launchLoopbackChromium(CHROMIUM!);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  for (const width of [1280, 390]) {
    for (const colorScheme of ['light', 'dark'] as const) {
      it(`is readable and accessible at ${width} px (${colorScheme})`, async () => {
        const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme });
        const page = await context.newPage();
        const problems: string[] = [];
        page.on('console', (message) => problems.push(message.text()));
        page.on('pageerror', (error) => problems.push(String(error)));
        const response = await page.goto(`${server.url}/test/stats-chart`);
        expect(response?.status()).toBe(200);
        await expectFitsViewport(page, width);
        await expectNoAxeViolations(page);
        expect(problems).toEqual([]);

        const svg = page.locator('.stats-chart svg');
        const box = await svg.boundingBox();
        expect(box!.width).toBeGreaterThan(width === 390 ? 300 : 500);
        expect(box!.width).toBeLessThanOrEqual(641);
        expect(await page.locator('.stats-chart rect').count()).toBeGreaterThan(40);
        // The bars take the stylesheet's colours (a CSP that blocked the stylesheet would leave them black).
        const fill = await page.locator('.stats-chart rect.bar-views').first().evaluate((el) => getComputedStyle(el).fill);
        expect(fill).not.toBe('rgb(0, 0, 0)');
        // The chart is an image with a name; the table of every day is in the accessibility tree though not on screen.
        const snapshot = await page.locator('.stats-chart').ariaSnapshot();
        expect(snapshot).toContain('img "Views and clicks per day');
        expect(snapshot).toMatch(/table "Statistics per day/);
        expect(await page.locator('.stats-chart table tbody tr').count()).toBe(30);
        expect(await page.getByText('Click-through rate:').isVisible()).toBe(true);
        // STATS_CHART_SCREENSHOTS=dir keeps a picture of each case for a person to look at.
        const dir = process.env.STATS_CHART_SCREENSHOTS;
        if (dir) await page.locator('.stats-chart').screenshot({ path: join(dir, `stats-chart-${width}-${colorScheme}.png`) });
        await context.close();
      });
    }
  }
});
