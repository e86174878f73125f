// Issue 31's story end to end, through the public surface only: a maker submits a tool with a mistyped address,
// pays (local checkout, a signed Stripe event behind it), the crawl fails and says so (page and mail), the CLI is
// told the address it tries is taken by another listing, the submission page's form fixes the address, and the tool
// goes live without a second payment. Debian's Chromium against the real Node server in local mode; every page of
// the story at 1280 and 390 px under axe-core.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { startNodeServer, type NodeServer } from '../../../functions/node';
import { queryRows } from '../../../src/db/client';
import { expectNoAxeViolations } from '../../helpers/browser/axe';
import { expectFitsViewport } from '../../helpers/browser/viewport';
import { mailedCodeFor } from '../../helpers/mailed-code';
import { NARROW, startLoopbackBrowser, WIDE, type LoopbackBrowser } from '../../helpers/browser/loopback-browser';
import { htmlPage, startFixtureSite, type FixtureSite } from '../../helpers/fixture-site';
import { findChromium } from '../../helpers/services/chromium';
import { requireService } from '../../helpers/services/require-service';
import { freePort } from '../../helpers/child-server';
import { cliUser } from '../cli/cli-process';

const describeBrowser = requireService('Chromium', findChromium() !== null, 'REQUIRE_BROWSER');
const ADMIN_TOKEN = `story-${crypto.randomUUID()}`;

describeBrowser('the wrong-URL story: pay, fail, fix, live', () => {
  let server: NodeServer;
  let chromium: LoopbackBrowser;
  let fixture: FixtureSite;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tooldir-browser-story-'));
    cpSync(inject('pgliteTemplate'), join(dataDir, 'pglite'), { recursive: true });
    fixture = await startFixtureSite({
      '/': htmlPage('<title>Acme Writer</title><meta name="description" content="Writes for you.">'),
      '/other': htmlPage('<title>Other Writer</title>'),
    });
    // Crawls go to 127.0.0.1 literals only (no name is ever resolved); one attempt, so the failure shows at once.
    server = await startNodeServer({
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      ADMIN_TOKEN,
      CRAWL_ALLOW_PRIVATE: 'true',
      CRAWL_MAX_ATTEMPTS: '1',
      AUTO_APPROVE: 'true',
    });
    chromium = await startLoopbackBrowser();
  });

  afterAll(async () => {
    await chromium?.close();
    await server?.close();
    await fixture?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    expect(chromium.offLoopback).toEqual([]);
    expect(chromium.cspViolations).toEqual([]);
  });

  async function checkWidths(page: Page): Promise<void> {
    for (const size of [WIDE, NARROW]) {
      await page.setViewportSize(size);
      await expectNoAxeViolations(page);
      if (size.width === 390) await expectFitsViewport(page, 390);
    }
    await page.setViewportSize(WIDE);
  }

  const admin = async (path: string, body: unknown) => {
    const res = await fetch(`${server.url}/api/v1/admin${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(201);
    return (await res.json()) as Record<string, string>;
  };
  const mailSubjects = async (email: string) =>
    (
      await queryRows<{ subject: string }>(
        server.deps.db,
        sql`SELECT subject FROM mail_outbox WHERE "to" = ${email} AND subject NOT LIKE '%sign-in code%' ORDER BY id`,
      )
    ).map((m) => m.subject);

  it('a maker who paid for a mistyped address fixes it and the tool goes live, paying once', async () => {
    const email = `maker-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const account = await admin('/accounts', { email, tier: 'none' });
    const key = (await admin(`/accounts/${account.account_id}/keys`, { name: 'story' })).key!;
    // Someone else's live tool, whose address the maker will try by mistake from the CLI.
    const other = await admin('/accounts', {
      email: `other-${crypto.randomUUID().slice(0, 8)}@example.com`,
      tier: 'member',
    });
    const otherKey = (await admin(`/accounts/${other.account_id}/keys`, { name: 'other' })).key!;
    const otherSite = `${fixture.origin}/other`;
    const otherRes = await fetch(`${server.url}/api/v1/submit-site`, {
      method: 'POST',
      headers: { authorization: `Bearer ${otherKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Other Writer', url: otherSite }),
    });
    const otherId = ((await otherRes.json()) as { site_id: string }).site_id;
    await expect
      .poll(
        async () =>
          (
            await queryRows<{ status: string }>(
              server.deps.db,
              sql`SELECT status FROM sites WHERE id = ${otherId}::uuid`,
            )
          )[0]?.status,
        { timeout: 20_000 },
      )
      .toBe('live');

    const context = await chromium.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/submit?plan=featured`);
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Send code' }).click();
    await expect.poll(() => page.textContent('main')).toContain('We sent a 6-digit code');
    await page.getByLabel('Code').fill(await mailedCodeFor(server.deps.db, email, page));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${server.url}/submit?plan=featured`);

    // The form states the money rule and names the step and the charge of the plan checked.
    expect(await page.textContent('#refund-rule')).toBe(
      'If an editor rejects your tool before it ever goes live, your payment is refunded in full.',
    );
    expect(await page.textContent('#review-time')).toMatch(
      /^(Review usually takes .+|Review time: too few decisions .+)$/,
    );
    await expect.poll(() => page.getByRole('button', { name: 'Continue to payment – 19.90 USD' }).count()).toBe(1);
    await page.check('#plan-basic');
    await expect.poll(() => page.getByRole('button', { name: 'Continue to payment – 15.90 USD' }).count()).toBe(1);
    await page.check('#plan-featured');
    await checkWidths(page);

    const deadPort = await freePort();
    const wrong = `http://127.0.0.1:${deadPort}/`;
    await page.getByLabel('Name').fill('Acme Writer');
    await page.getByLabel('Website address').fill(wrong);
    await page.getByRole('button', { name: 'Continue to payment – 19.90 USD' }).click();
    await page.waitForURL(/\/checkout\/cs_local_/);
    expect(await page.textContent('#refund-rule')).toContain('refunded in full');
    await checkWidths(page);
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(/\/checkout\/success/);
    await page.getByRole('link', { name: 'Follow your submission' }).click();
    await page.waitForURL(/\/account\/submissions\//);
    const siteId = new URL(page.url()).pathname.split('/').at(-1)!;

    // The crawl fails: the page says why and offers a new address; the mail said so too, after the receipt.
    await expect
      .poll(async () => (await page.reload(), page.getAttribute('#status', 'data-status')), { timeout: 20_000 })
      .toBe('crawl_failed');
    expect(await page.textContent('#crawl-error')).toBe('the site could not be reached');
    await expect
      .poll(() => mailSubjects(email))
      .toEqual(['Receipt: Featured listing of Acme Writer, 19.90 USD', "We could not read Acme Writer's website"]);
    await checkWidths(page);

    // From the CLI, the maker first tries the other tool's address: refused, the listing named, nothing changed.
    const cli = await cliUser(server.url);
    const taken = await cli.run(['edit', siteId, '--url', otherSite], { env: { TOOLDIR_API_KEY: key } });
    expect(taken.code).toBe(4);
    expect(taken.stderr).toContain('This address is already listed as "Other Writer"');
    const usage = await cli.run(['edit', siteId, '--url', otherSite, '--name', 'Both'], {
      env: { TOOLDIR_API_KEY: key },
    });
    expect(usage.code).toBe(2);

    // On the page: a malformed address comes back with what was typed and the reason next to the field.
    await page.getByLabel('Website address').fill('ftp://acme.example/');
    await page.getByRole('button', { name: 'Change the address and crawl again' }).click();
    expect(await page.inputValue('#new-url')).toBe('ftp://acme.example/');
    expect(await page.textContent('#new-url-error')).toBe('The address must start with https:// or http://, not ftp:');
    await checkWidths(page);

    // The right address: queued again at once, crawled, approved by the automatic checks, live; paid once.
    await page.getByLabel('Website address').fill(`${fixture.origin}/`);
    await page.getByRole('button', { name: 'Change the address and crawl again' }).click();
    await page.waitForURL(`${server.url}/account/submissions/${siteId}`);
    await expect
      .poll(async () => (await page.reload(), page.getAttribute('#status', 'data-status')), { timeout: 20_000 })
      .toBe('live');
    expect(await page.textContent('#timeline')).toContain('address changed by the submitter; crawled again');
    expect(await page.getAttribute('#crawled-from', 'data-scheme')).toBe('http');
    await checkWidths(page);

    const record = (await (
      await fetch(`${server.url}/api/v1/sites/${siteId}`, { headers: { authorization: `Bearer ${key}` } })
    ).json()) as Record<string, string>;
    expect(record).toMatchObject({ status: 'live', url: `${fixture.origin}/`, is_feature: true });
    expect((await fetch(record.live_url!)).status).toBe(200);
    const [payments] = await queryRows<{ n: number }>(
      server.deps.db,
      sql`SELECT count(*)::int AS n FROM checkout_sessions WHERE site_id = ${siteId}::uuid`,
    );
    expect(Number(payments!.n)).toBe(1);
    expect(await mailSubjects(email)).toEqual([
      'Receipt: Featured listing of Acme Writer, 19.90 USD',
      "We could not read Acme Writer's website",
      'Acme Writer is live on tooldir',
    ]);
    await context.close();
  }, 240_000);
});
