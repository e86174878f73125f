// Health of a listing in Chromium (docs/health.md "Consequences", "Readers see freshness"): the tool page says when
// the site was last checked; a listing whose site fails (HEALTH_HIDE_AFTER_DAYS=0: at the first failing check) leaves
// search, its category, the home page and the sitemap while its page shows the notice with noindex, and the first
// passing check brings it back; the editor's /admin lists failing listings, and its Take down works through the page
// (editor session and CSRF token; refused without either). Every page at 1280 and 390 px with axe-core.
// HEALTH_SCREENSHOTS=docs/screenshots keeps tool-health-checked-*, tool-health-notice-* and admin-health-*.
import { sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client';
import {
  checkBothWidths,
  HEALTH_ADMIN,
  startHealthServer,
  type HealthServer,
} from '../../helpers/browser/health-server';
import { startLoopbackBrowser, type LoopbackBrowser } from '../../helpers/browser/loopback-browser';
import { findChromium } from '../../helpers/services/chromium';
import { requireService } from '../../helpers/services/require-service';

const describeBrowser = requireService('Chromium', findChromium() !== null, 'REQUIRE_BROWSER');

describeBrowser('a listing whose site fails, in Chromium', () => {
  let h: HealthServer;
  let chromium: LoopbackBrowser;
  let reader: Page;
  let flaky: { id: string; slug: string; name: string };
  let gone: { id: string; slug: string; name: string };

  beforeAll(async () => {
    h = await startHealthServer({ HEALTH_HIDE_AFTER_DAYS: '0' });
    chromium = await startLoopbackBrowser();
    reader = await (await chromium.newContext()).newPage();
    h.sites.set('flaky', { kind: 'up', title: 'Flakywise', description: 'What Flakywise does' });
    flaky = await h.liveTool('flaky', 'Flakywise', { categories: ['writing'] });
    h.sites.set('gone', { kind: 'status', status: 404 });
    gone = await h.liveTool('gone', 'Gonewise');
  }, 240_000);
  afterAll(async () => {
    expect(chromium?.offLoopback).toEqual([]);
    expect(chromium?.cspViolations).toEqual([]);
    expect(h?.sites.violations).toEqual([]);
    await chromium?.close();
    await h?.close();
  });

  /** Where the tool is listed: the search page, its category, the home page (in Chromium) and the sitemap. */
  async function listedIn(tool: { slug: string; name: string }) {
    const shows = async (path: string) => {
      await reader.goto(`${h.server.url}${path}`);
      return (await reader.locator(`main a[href$="/tools/${tool.slug}"]`).count()) > 0;
    };
    return {
      search: await shows(`/?q=${encodeURIComponent(tool.name)}`),
      category: await shows('/categories/writing'),
      home: await shows('/'),
      sitemap: (await (await h.api('/sitemap.xml')).text()).includes(`/tools/${tool.slug}`),
    };
  }
  const everywhere = { search: true, category: true, home: true, sitemap: true };
  const nowhere = { search: false, category: false, home: false, sitemap: false };
  // Read at once (a locator would wait for a meta tag that is rightly absent).
  const robotsOf = (page: Page) =>
    page.evaluate(() => document.querySelector('meta[name="robots"]')?.getAttribute('content') ?? '');

  it('a passing check: listed everywhere, and the page says "Checked 3 hours ago"', async () => {
    await h.recheck(flaky.id);
    await h.server.deps.db.execute(
      sql`UPDATE site_health SET last_checked_at = now() - interval '3 hours' WHERE site_id = ${flaky.id}`,
    );
    expect(await listedIn(flaky)).toEqual(everywhere);
    await reader.goto(`${h.server.url}/tools/${flaky.slug}`);
    expect(await reader.textContent('main')).toMatch(/Checked 3 hours ago/);
    expect(await reader.locator('main [role="status"]').count()).toBe(0);
    await reader.getByRole('link', { name: 'Checked' }).click();
    await reader.waitForURL(`${h.server.url}/about/checks`);
    await reader.goto(`${h.server.url}/tools/${flaky.slug}`);
    await checkBothWidths(reader, 'tool-health-checked');
  });

  it('a failing check hides it from every list; its page stays, with the notice and noindex', async () => {
    h.sites.set('flaky', { kind: 'status', status: 503 });
    await h.recheck(flaky.id);
    expect(await listedIn(flaky)).toEqual(nowhere);
    const res = await reader.goto(`${h.server.url}/tools/${flaky.slug}`);
    expect(res?.status()).toBe(200);
    const notice = reader.locator('main [role="status"]');
    expect(await notice.textContent()).toMatch(/This tool's website has not answered since .+ \(HTTP 503\)/);
    expect(await robotsOf(reader)).toMatch(/noindex/);
    await checkBothWidths(reader, 'tool-health-notice');
  });

  it('the first passing check brings it back everywhere, without the notice', async () => {
    h.sites.set('flaky', { kind: 'up', title: 'Flakywise', description: 'What Flakywise does' });
    await h.recheck(flaky.id);
    expect(await listedIn(flaky)).toEqual(everywhere);
    await reader.goto(`${h.server.url}/tools/${flaky.slug}`);
    expect(await reader.locator('main [role="status"]').count()).toBe(0);
    expect(await robotsOf(reader)).not.toMatch(/noindex/);
  });

  it("the editor's list of failing listings, and Take down through the page (refused without session or token)", async () => {
    await h.recheck(gone.id);
    const context = await chromium.newContext();
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    await page.goto(`${h.server.url}/admin`);
    await page.getByLabel('Operator token').fill(HEALTH_ADMIN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForSelector('text=Review queue');
    await expect
      .poll(() => page.getByRole('heading', { name: /Listings that fail their daily check/ }).textContent())
      .toBe('Listings that fail their daily check (1)');
    const item = page.locator('#health-trouble li', { has: page.getByRole('heading', { name: /Gonewise/ }) });
    expect(await item.textContent()).toMatch(
      /Gonewise \(hidden from the lists\).*Failing: not found \(HTTP 404\) since/s,
    );
    await checkBothWidths(page, 'admin-health');

    const status = async () =>
      (await queryRows<{ status: string }>(h.server.deps.db, sql`SELECT status FROM sites WHERE id = ${gone.id}`))[0]!
        .status;
    const csrf = (await item.locator('input[name="_csrf"]').getAttribute('value'))!;
    // The editor's own session, without the form's token: refused.
    const noToken = await context.request.post(`${h.server.url}/admin/sites/${gone.id}/review`, {
      form: { decision: 'reject' },
      headers: { origin: h.server.url },
      maxRedirects: 0,
    });
    expect(noToken.status()).toBe(403);
    // The token without the session: refused.
    const noSession = await h.api(`/admin/sites/${gone.id}/review`, { form: { decision: 'reject', _csrf: csrf } });
    expect(noSession.status).toBe(403);
    expect(await status()).toBe('live');

    await item.getByLabel(/Reason/).fill('The domain is gone.');
    await item.getByRole('button', { name: 'Take down' }).click();
    await page.waitForURL(/\/admin\?notice=rejected/);
    expect(await status()).toBe('rejected');
    expect(await page.getByRole('heading', { name: /Listings that fail their daily check/ }).textContent()).toBe(
      'Listings that fail their daily check (0)',
    );
    expect((await reader.goto(`${h.server.url}/tools/${gone.slug}`))?.status()).not.toBe(200);
    await context.close();
  });
});
