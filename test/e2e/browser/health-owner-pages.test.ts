// The owner's health pages in Chromium (docs/health.md "Changes on the site", "Mails and the opt-out"): the
// submission page's "Your site has changed" with what the site now says beside the listing and its Refresh from the
// site button (a double click files one edit), the account page's switch for the health mails, and the page behind
// the mails' opt-out link. Every page at 1280 and 390 px with axe-core.
// HEALTH_SCREENSHOTS=docs/screenshots keeps account-refresh-from-site-*, account-health-mails-* and health-mails-opt-out-*.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client';
import {
  checkBothWidths,
  signedInMember,
  startHealthServer,
  type HealthServer,
} from '../../helpers/browser/health-server';
import { startLoopbackBrowser, type LoopbackBrowser } from '../../helpers/browser/loopback-browser';
import { findChromium } from '../../helpers/services/chromium';
import { requireService } from '../../helpers/services/require-service';

const describeBrowser = requireService('Chromium', findChromium() !== null, 'REQUIRE_BROWSER');

describeBrowser("the owner's health pages in Chromium", () => {
  let h: HealthServer;
  let chromium: LoopbackBrowser;

  beforeAll(async () => {
    h = await startHealthServer();
    chromium = await startLoopbackBrowser();
  }, 240_000);
  afterAll(async () => {
    expect(chromium?.offLoopback).toEqual([]);
    expect(chromium?.cspViolations).toEqual([]);
    expect(h?.sites.violations).toEqual([]);
    await chromium?.close();
    await h?.close();
  });

  const one = async <T>(query: ReturnType<typeof sql>) => (await queryRows<T>(h.server.deps.db, query))[0]!;

  it('Refresh from the site: both sides shown, a double click files one edit for review', async () => {
    const { accountId, page, context } = await signedInMember(h, chromium);
    h.sites.set('renewed', { kind: 'up', title: 'Renewwise', description: 'What Renewwise now says it does' });
    const tool = await h.liveTool('renewed', 'Renewwise', { accountId, description: 'What Renewwise did' });
    await page.goto(`${h.server.url}/account/submissions/${tool.id}`);
    expect(await page.locator('#site-changes').count()).toBe(0);
    await h.recheck(tool.id);
    await page.goto(`${h.server.url}/account/submissions/${tool.id}`);
    const section = page.getByRole('region', { name: 'Your site has changed' });
    const description = section.getByRole('row', { name: /Description/ });
    expect(await description.textContent()).toMatch(/What Renewwise now says it does.*What Renewwise did/s);
    await checkBothWidths(page, 'account-refresh-from-site');

    await page.getByRole('button', { name: 'Refresh from the site' }).dblclick();
    await page.waitForURL(`${h.server.url}/account/submissions/${tool.id}#edit`);
    expect(await page.locator('#pending-edit').textContent()).toMatch(/waiting for review/i);
    const edits = await queryRows<{ status: string; description: string }>(
      h.server.deps.db,
      sql`SELECT status, description FROM site_edits WHERE site_id = ${tool.id}`,
    );
    expect(edits).toEqual([{ status: 'pending', description: 'What Renewwise now says it does' }]);
    await context.close();
  });

  it("the account page's switch and the mails' opt-out link turn the health mails off and on", async () => {
    const { accountId, page, context } = await signedInMember(h, chromium);
    const healthMails = async () =>
      (await one<{ on: boolean }>(sql`SELECT health_mails AS on FROM accounts WHERE id = ${accountId}`)).on;
    const section = page.getByRole('region', { name: 'Website check e-mails' });
    expect(await section.textContent()).toMatch(/You get an e-mail when the daily check/);
    await section.getByRole('button', { name: 'Stop these e-mails' }).click();
    await page.waitForURL(`${h.server.url}/account#health-mails`);
    expect(await healthMails()).toBe(false);
    expect(await section.textContent()).toMatch(/You get no e-mail about the daily checks/);
    await checkBothWidths(page, 'account-health-mails');
    await section.getByRole('button', { name: 'Send these e-mails again' }).click();
    await page.waitForURL(`${h.server.url}/account#health-mails`);
    expect(await healthMails()).toBe(true);
    await context.close();

    // The link in a mail, opened in a browser without a session: the GET shows the choice, the button changes it.
    const { token } = await one<{ token: string }>(
      sql`SELECT health_mail_token::text AS token FROM accounts WHERE id = ${accountId}`,
    );
    const stranger = await chromium.newContext();
    const mailPage = await stranger.newPage();
    await mailPage.goto(`${h.server.url}/health-mails/${token}`);
    expect(await healthMails()).toBe(true);
    await checkBothWidths(mailPage, 'health-mails-opt-out');
    await mailPage.getByRole('button', { name: 'Stop these e-mails' }).click();
    await mailPage.getByRole('status').waitFor();
    expect(await healthMails()).toBe(false);
    expect(await mailPage.textContent('main')).toMatch(/You no longer get e-mails about the daily checks/);
    await mailPage.getByRole('button', { name: 'Send them again' }).click();
    await expect.poll(healthMails).toBe(true);
    await stranger.close();
  });
});
