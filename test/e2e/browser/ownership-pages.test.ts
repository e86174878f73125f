// The ownership pages in Chromium at 390 and 1280 px, axe-core clean in both schemes: /account/domains (add, a refused
// domain, the three proofs with copyable values, the file proof of a local <name>.localhost site, remove), the claim
// form (a claim that moves a listing, a disputed one) and the operator's list of claim disputes on /admin, with the
// operator's decision.
// SCREENSHOT_DIR=docs/screenshots keeps a picture of each page at both widths.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { startNodeServer, type NodeServer } from '../../../functions/node';
import { expectNoAxeViolations } from '../../helpers/browser/axe';
import { NARROW, startLoopbackBrowser, WIDE, type LoopbackBrowser } from '../../helpers/browser/loopback-browser';
import { expectFitsViewport } from '../../helpers/browser/viewport';
import { mailedCodeFor } from '../../helpers/mailed-code';
import { findChromium } from '../../helpers/services/chromium';
import { requireService } from '../../helpers/services/require-service';
import { startFixtureSite, type FixtureSite } from '../../helpers/fixture-site';
import { localOnlyCrawl } from '../../helpers/local-proof-network';
import { txtTable } from '../../helpers/domain-fixtures';
import { seedOwnedTool } from '../../helpers/owned-tools';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../../src/db/client';

const describeBrowser = requireService('Chromium', findChromium() !== null, 'REQUIRE_BROWSER');

describeBrowser('domains, claims and disputes in Chromium', () => {
  let server: NodeServer;
  let chromium: LoopbackBrowser;
  let site: FixtureSite;
  let dataDir: string;
  let fileBody = '';
  const records: Record<string, string[]> = {};
  const crawl = localOnlyCrawl();
  const adminToken = `admin-${crypto.randomUUID()}`;

  beforeAll(async () => {
    site = await startFixtureSite({
      '/.well-known/tooldir-verification.txt': (_q, response) => response.writeHead(200).end(fileBody),
    });
    dataDir = mkdtempSync(join(tmpdir(), 'tooldir-ownership-pages-'));
    cpSync(inject('pgliteTemplate'), join(dataDir, 'pglite'), { recursive: true });
    server = await startNodeServer(
      {
        HOST: '127.0.0.1',
        PORT: '0',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        ADMIN_TOKEN: adminToken,
        CRAWL_ALLOW_PRIVATE: 'true',
      },
      { overrides: { crawl, txt: txtTable(records) }, localSweeper: false },
    );
    chromium = await startLoopbackBrowser();
  });
  afterAll(async () => {
    await chromium?.close();
    await server?.close();
    await site?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  async function check(page: Page, shot?: string) {
    for (const size of [NARROW, WIDE]) {
      await page.setViewportSize(size);
      await expectFitsViewport(page, size.width);
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        await expectNoAxeViolations(page);
      }
      await page.emulateMedia({ colorScheme: 'light' });
      const dir = process.env.SCREENSHOT_DIR;
      if (dir && shot) await page.screenshot({ path: join(dir, `${shot}-${size.width}.png`), fullPage: true });
    }
  }

  async function signIn(page: Page, email: string) {
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Send code' }).click();
    await expect.poll(() => page.textContent('main')).toContain(`We sent a 6-digit code to ${email}`);
    await page.getByLabel('Code').fill(await mailedCodeFor(server.deps.db, email, page));
    await page.getByRole('button', { name: 'Sign in' }).click();
  }
  const accountIdOf = async (email: string) => {
    const res = await fetch(`${server.url}/api/v1/admin/accounts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email, tier: 'member' }),
    });
    return ((await res.json()) as { account_id: string }).account_id;
  };
  /** Adds a domain on the page and proves it by DNS (the injected TXT table gets the value the page shows). */
  async function proveByDns(page: Page, domain: string) {
    await page.getByLabel('Domain', { exact: true }).fill(domain);
    await page.getByRole('button', { name: 'Add domain' }).click();
    await page.waitForURL(/notice=added/);
    const panel = page.locator(`section#domain-${domain.replace(/[^a-z0-9-]/g, '-')}`);
    records[await panel.getByLabel('Record name', { exact: true }).inputValue()] = [
      await panel.getByLabel('Record value', { exact: true }).inputValue(),
    ];
    await panel.getByRole('button', { name: 'Verify by DNS' }).click();
    await page.waitForURL(/notice=verified/);
  }

  it('the Domains page: add (and a refused domain), the three proofs, a local file proof, remove', async () => {
    const context = await chromium.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/account/domains`);
    await signIn(page, `domains-${crypto.randomUUID().slice(0, 8)}@example.com`);
    await page.waitForURL(`${server.url}/account/domains`);
    expect(await page.textContent('main')).toContain('No domains yet.');

    await page.getByLabel('Domain', { exact: true }).fill('co.uk');
    await page.getByRole('button', { name: 'Add domain' }).click();
    expect(await page.textContent('#error-summary')).toContain('public suffix');
    expect(await page.getByLabel('Domain', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await check(page);

    const local = `mytool-${crypto.randomUUID().slice(0, 6)}.localhost`;
    await page.getByLabel('Domain', { exact: true }).fill(`App.${local}`);
    await page.getByRole('button', { name: 'Add domain' }).click();
    await page.waitForURL(/notice=added/);
    const panel = page.locator(`section#domain-${local.replace(/[^a-z0-9-]/g, '-')}`);
    const token = await panel.getByLabel('File body', { exact: true }).inputValue();
    expect(await panel.getByLabel('Record value', { exact: true }).inputValue()).toBe(`tooldir-verification=${token}`);
    expect(await panel.getByRole('button', { name: 'Copy Record value' }).isVisible()).toBe(true);
    await check(page, 'account-domains');

    fileBody = 'something else';
    await panel.getByLabel('Port of your local site').fill(String(site.port));
    await panel.getByRole('button', { name: 'Verify by file' }).click();
    expect(await page.textContent('#error-summary')).toContain('wrong value');
    await check(page);
    fileBody = token;
    await page
      .locator(`section#domain-${local.replace(/[^a-z0-9-]/g, '-')}`)
      .getByLabel('Port of your local site')
      .fill(String(site.port));
    await page
      .locator(`section#domain-${local.replace(/[^a-z0-9-]/g, '-')}`)
      .getByRole('button', { name: 'Verify by file' })
      .click();
    await page.waitForURL(/notice=verified/);
    expect(await page.textContent(`section#domain-${local.replace(/[^a-z0-9-]/g, '-')}`)).toContain('Verified by http');

    const mailed = `mail-${crypto.randomUUID().slice(0, 6)}.com`;
    await page.getByLabel('Domain', { exact: true }).fill(mailed);
    await page.getByRole('button', { name: 'Add domain' }).click();
    await page.waitForURL(/notice=added/);
    const mailPanel = page.locator(`section#domain-${mailed.replace(/[^a-z0-9-]/g, '-')}`);
    await mailPanel.getByLabel(`An address at ${mailed}`).fill(`me@sub.${mailed}`);
    await mailPanel.getByRole('button', { name: 'Send a code' }).click();
    expect(await page.textContent('#error-summary')).toContain('not at a subdomain');
    await page
      .locator(`section#domain-${mailed.replace(/[^a-z0-9-]/g, '-')}`)
      .getByLabel(`An address at ${mailed}`)
      .fill(`me@${mailed}`);
    await page
      .locator(`section#domain-${mailed.replace(/[^a-z0-9-]/g, '-')}`)
      .getByRole('button', { name: 'Send a code' })
      .click();
    await page.waitForURL(/notice=code_sent/);
    await page
      .locator(`section#domain-${mailed.replace(/[^a-z0-9-]/g, '-')}`)
      .getByLabel(`Code sent to me@${mailed}`)
      .fill('000000');
    await page
      .locator(`section#domain-${mailed.replace(/[^a-z0-9-]/g, '-')}`)
      .getByRole('button', { name: 'Verify the code' })
      .click();
    expect(await page.textContent('#error-summary')).toContain('Wrong code');
    await check(page);

    await page.getByRole('button', { name: `Remove ${mailed}` }).click();
    await page.waitForURL(/notice=removed/);
    expect(await page.textContent('main')).not.toContain(mailed);
    await context.close();
  }, 180_000);

  it('the claim form moves a listing; a disputed claim says so; the operator page lists the dispute', async () => {
    const context = await chromium.newContext();
    const page = await context.newPage();
    const email = `claimant-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await page.goto(`${server.url}/account/domains`);
    await signIn(page, email);
    await page.waitForURL(`${server.url}/account/domains`);
    const domain = `claimed-${crypto.randomUUID().slice(0, 6)}.com`;
    await proveByDns(page, domain);

    const squatter = await accountIdOf(`squatter-${crypto.randomUUID().slice(0, 8)}@example.com`);
    const takenName = `Taken ${crypto.randomUUID().slice(0, 6)}`;
    const taken = await seedOwnedTool(server.deps.db, squatter, { name: takenName, url: `https://${domain}/` });
    await page.getByLabel("The listing's URL").fill(`https://www.${domain}`);
    await page.getByRole('button', { name: 'Claim listing' }).click();
    await page.waitForURL(`${server.url}/account/submissions/${taken.id}`);
    expect(await page.textContent('main')).toContain(takenName); // the claimant's own submission page now
    const [moved] = await queryRows<{ owner: string }>(
      server.deps.db,
      sql`SELECT a.email AS owner FROM sites s JOIN accounts a ON a.id = s.account_id WHERE s.id = ${taken.id}::uuid`,
    );
    expect(moved!.owner).toBe(email);

    // A listing whose owner proved the domain too: the claim is recorded as a dispute for the operator.
    const rival = `rival-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const rivalId = await accountIdOf(rival);
    const contested = await seedOwnedTool(server.deps.db, rivalId, {
      name: `Contested ${crypto.randomUUID().slice(0, 6)}`,
      url: `https://app.${domain}/`,
    });
    await queryRows(
      server.deps.db,
      sql`INSERT INTO domain_proofs (id, account_id, domain, token, status, method, verified_at, checked_at)
      VALUES (${crypto.randomUUID()}::uuid, ${rivalId}::uuid, ${domain}, 'td_rival', 'verified', 'dns', now(), now())`,
    );
    await page.goto(`${server.url}/account/domains`);
    await page.getByLabel("The listing's URL").fill(`https://app.${domain}/`);
    await page.getByRole('button', { name: 'Claim listing' }).click();
    expect(await page.textContent('#error-summary')).toContain('an operator will decide');
    await check(page, 'account-claim');

    const admin = await chromium.newContext();
    const editor = await admin.newPage();
    await editor.goto(`${server.url}/admin`);
    await editor.getByLabel('Operator token').fill(adminToken);
    await editor.getByRole('button', { name: 'Sign in' }).click();
    await editor.waitForSelector('text=Claim disputes (1)');
    const disputes = await editor.textContent('section[aria-labelledby="claim-disputes"]');
    expect(disputes).toContain(`https://app.${domain}/`);
    expect(contested.id).toBeTruthy();
    expect(disputes).toContain(rival);
    expect(disputes).toContain(email);
    await check(editor, 'admin-disputes');
    // The operator's decision: the listing goes to the claimant, the page says so and the dispute leaves the list.
    await editor.getByRole('button', { name: 'Give the listing to the claimant' }).click();
    await editor.waitForURL(/notice=dispute_awarded/);
    expect(await editor.textContent('[role="status"]')).toContain("the listing is now in the claimant's account");
    await editor.waitForSelector('text=Claim disputes (0)');
    const [awarded] = await queryRows<{ owner: string }>(
      server.deps.db,
      sql`SELECT a.email AS owner FROM sites s JOIN accounts a ON a.id = s.account_id WHERE s.id = ${contested.id}::uuid`,
    );
    expect(awarded!.owner).toBe(email);
    await check(editor, 'admin-disputes-decided');
    await admin.close();
    await context.close();
  }, 180_000);

  it('stayed on loopback, looked nothing up and broke no CSP rule', () => {
    expect(chromium.offLoopback).toEqual([]);
    expect(chromium.cspViolations).toEqual([]);
    expect(crawl.refused).toEqual([]);
  });
});
