// A Node server for the health browser suites (docs/health.md): loopback health sites stand in for the tools' websites
// (test/helpers/health-sites.ts), the scheduled rounds are off (tests run a round through POST /api/jobs/recheck with
// the operator token), and members sign in through the real sign-in page. Pages are checked at 1280 and 390 px with
// axe-core; HEALTH_SCREENSHOTS=docs/screenshots keeps `<shot>-<width>.png`.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { startNodeServer, type NodeServer } from '../../../functions/node';
import type { CrawlTransport } from '../../../src/deps';
import { startHealthSites, type HealthSites } from '../health-sites';
import { seedTools } from '../live-tools';
import { mailedCodeFor } from '../mailed-code';
import { recordingQueue } from '../stripe/payments-fixture';
import { expectNoAxeViolations } from './axe';
import { type LoopbackBrowser, NARROW, WIDE } from './loopback-browser';
import { expectFitsViewport } from './viewport';

export const HEALTH_ADMIN = 'browser-admin-token-health-0123456789';

export interface HealthServer {
  server: NodeServer;
  sites: HealthSites;
  api(
    path: string,
    init?: { method?: string; key?: string; json?: unknown; form?: Record<string, string> },
  ): Promise<Response>;
  recheck(...siteIds: string[]): Promise<void>;
  /** A live tool named `name` whose website is the loopback site `site`, owned by `accountId` when given. */
  liveTool(
    site: string,
    name: string,
    options?: { accountId?: string; categories?: string[]; description?: string },
  ): Promise<{ id: string; slug: string; name: string }>;
  close(): Promise<void>;
}

export async function startHealthServer(
  env: Record<string, string> = {},
  options: { crawl?: (sites: HealthSites) => CrawlTransport } = {},
): Promise<HealthServer> {
  const sites = await startHealthSites();
  const dataDir = mkdtempSync(join(tmpdir(), 'tooldir-health-browser-'));
  cpSync(inject('pgliteTemplate'), join(dataDir, 'pglite'), { recursive: true });
  const server = await startNodeServer(
    {
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: dataDir,
      LOG_LEVEL: process.env.HEALTH_LOG ?? 'silent',
      ADMIN_TOKEN: HEALTH_ADMIN,
      CRAWL_ALLOW_PRIVATE: 'true',
      HEALTH_CHECKS: 'off',
      ...env,
    },
    { overrides: { queue: recordingQueue(), crawl: options.crawl?.(sites) ?? sites }, localSweeper: false },
  );
  const api: HealthServer['api'] = (path, init = {}) =>
    fetch(`${server.url}${path}`, {
      method: init.method ?? (init.json !== undefined || init.form ? 'POST' : 'GET'),
      headers: {
        ...(init.key && { authorization: `Bearer ${init.key}` }),
        ...(init.json !== undefined && { 'content-type': 'application/json' }),
        ...(init.form && { 'content-type': 'application/x-www-form-urlencoded' }),
      },
      body: init.form
        ? new URLSearchParams(init.form).toString()
        : init.json === undefined
          ? undefined
          : JSON.stringify(init.json),
      redirect: 'manual',
    });
  return {
    server,
    sites,
    api,
    async recheck(...siteIds) {
      const res = await api('/api/jobs/recheck', { key: HEALTH_ADMIN, json: { site_ids: siteIds } });
      expect(res.status).toBe(200);
    },
    async liveTool(site, name, options = {}) {
      const [tool] = await seedTools(server.deps.db, [
        { name, description: options.description ?? `What ${name} does`, categories: options.categories },
      ]);
      await server.deps.db.execute(
        sql`UPDATE sites SET url = ${sites.urlOf(site)},
          account_id = coalesce(${options.accountId ?? null}::uuid, account_id) WHERE id = ${tool!.id}`,
      );
      return { id: tool!.id, slug: tool!.slug, name };
    },
    async close() {
      await server.close();
      await sites.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A member (account, API key) signed in through the sign-in page in a fresh profile. */
export async function signedInMember(h: HealthServer, chromium: LoopbackBrowser) {
  const email = `maker-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const account = (await (
    await h.api('/api/v1/admin/accounts', { key: HEALTH_ADMIN, json: { email, tier: 'member' } })
  ).json()) as { account_id: string };
  const { key } = (await (
    await h.api(`/api/v1/admin/accounts/${account.account_id}/keys`, { method: 'POST', key: HEALTH_ADMIN })
  ).json()) as { key: string };
  const context = await chromium.newContext();
  const page = await context.newPage();
  await page.goto(`${h.server.url}/account`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Send code' }).click();
  await page.waitForURL(/\/account\/sign-in$/);
  await page.getByLabel('Code').fill(await mailedCodeFor(h.server.deps.db, email, page));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${h.server.url}/account`);
  return { accountId: account.account_id, email, key, page, context };
}

/** The page at 1280 and 390 px: no sideways scroll, one h1, no axe-core violation; a screenshot of each when asked. */
export async function checkBothWidths(page: Page, shot?: string) {
  for (const viewport of [WIDE, NARROW]) {
    await page.setViewportSize(viewport);
    await expectFitsViewport(page, viewport.width);
    await expectNoAxeViolations(page);
    expect(await page.locator('h1').count()).toBe(1);
    const dir = process.env.HEALTH_SCREENSHOTS;
    if (dir && shot) await page.screenshot({ path: join(dir, `${shot}-${viewport.width}.png`), fullPage: true });
  }
  await page.setViewportSize(WIDE);
}
