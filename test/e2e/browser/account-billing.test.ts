import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { startNodeServer, type NodeServer } from '../../../functions/node';
import { expectNoAxeViolations } from '../../helpers/browser/axe';
import { expectFitsViewport } from '../../helpers/browser/viewport';
import { mailedCodeFor } from '../../helpers/mailed-code';
import { NARROW, startLoopbackBrowser, WIDE, type LoopbackBrowser } from '../../helpers/browser/loopback-browser';
import { findChromium } from '../../helpers/services/chromium';
import { requireService } from '../../helpers/services/require-service';
import {
  loopbackOnlyWebhookTransport,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../helpers/webhook-receiver';

// Memberships, billing and webhooks of the account area in Debian's Chromium (playwright-core) against the real
// Node server in local mode: a membership bought from /account through the local checkout, cancelled on the
// local billing page, and a webhook added, pinged (to a loopback receiver) and removed; every page at 1280 and
// 390 px under axe-core, with and without JavaScript.
const describeBrowser = requireService('Chromium', findChromium() !== null, 'REQUIRE_BROWSER');
const WIDTHS = [WIDE, NARROW] as const;

describeBrowser('account memberships, billing and webhooks in Chromium', () => {
  let server: NodeServer;
  let chromium: LoopbackBrowser;
  let dataDir: string;
  let receiver: WebhookReceiver;
  const transport = loopbackOnlyWebhookTransport();

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tooldir-browser-billing-'));
    cpSync(inject('pgliteTemplate'), join(dataDir, 'pglite'), { recursive: true });
    // Webhook deliveries go to a loopback receiver only: the transport refuses any other lookup or connection.
    server = await startNodeServer(
      { HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent', WEBHOOK_ALLOW_PRIVATE: 'true' },
      { overrides: { webhooks: transport } },
    );
    chromium = await startLoopbackBrowser();
    receiver = await startWebhookReceiver();
  });

  afterAll(async () => {
    await chromium?.close();
    await server?.close();
    await receiver?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    expect(transport.violations).toEqual([]);
    expect(chromium.offLoopback).toEqual([]);
    expect(chromium.cspViolations).toEqual([]);
  });

  /** A fresh browser profile whose every request must stay on loopback; CSP reports are collected. */
  const loopbackContext = (options: { javaScriptEnabled?: boolean } = {}): Promise<BrowserContext> =>
    chromium.newContext(options);
  const newPage = (context: BrowserContext): Promise<Page> => context.newPage();

  /** The page as it is, at 1280 × 900 and 390 × 844: no axe-core violation, and nothing wider than 390 px. */
  async function checkWidths(page: Page): Promise<void> {
    for (const size of WIDTHS) {
      await page.setViewportSize(size);
      await expectNoAxeViolations(page);
      if (size.width === 390) await expectFitsViewport(page, 390);
    }
    await page.setViewportSize(WIDTHS[0]);
  }

  /** Signs in from wherever the sign-in page is shown (its `next` decides where it returns to). */
  async function signIn(page: Page, email: string): Promise<void> {
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Send code' }).click();
    await expect.poll(() => page.textContent('main')).toContain(`We sent a 6-digit code to ${email}`);
    await page.getByLabel('Code').fill(await mailedCodeFor(server.deps.db, email, page));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/account/sign-in'));
  }

  const newEmail = (who: string) => `${who}-${crypto.randomUUID().slice(0, 8)}@example.com`;

  it('buys a membership from /account (local checkout), sees the tier and quota, cancels it on the billing page', async () => {
    const context = await loopbackContext();
    const page = await newPage(context);
    // Signed out, the pricing link's target leads through sign-in and carries where it was going.
    await page.goto(`${server.url}/account/membership?tier=member`);
    expect(page.url()).toBe(
      `${server.url}/account/sign-in?next=${encodeURIComponent('/account/membership?tier=member')}`,
    );
    await signIn(page, newEmail('member'));
    if (new URL(page.url()).pathname !== '/account') await page.goto(`${server.url}/account`);

    await expect
      .poll(() => page.textContent('#no-membership'))
      .toMatch(/^You have no membership\. You can still submit any tool/);
    await checkWidths(page);
    await page.getByRole('link', { name: /^Become a member/ }).click();
    await page.waitForURL(`${server.url}/account/membership?tier=member`);
    expect(await page.textContent('#price')).toBe('49.00 USD per month');
    await checkWidths(page);
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await page.waitForURL(/\/checkout\/cs_local_/);
    await checkWidths(page);
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(`${server.url}/checkout/membership`);
    await page.getByRole('link', { name: 'Go to your account' }).click();
    await page.waitForURL(`${server.url}/account`);
    expect(await page.textContent('#tier')).toBe('Member');
    expect(await page.textContent('#membership-status')).toBe('active');
    expect(await page.textContent('#quota')).toBe('0 of 5');
    expect(await page.textContent('#quota-reset')).toMatch(
      /^Resets \d{4}-\d{2}-\d{2} 00:00 UTC \(in \d+ (hours?|minutes?)\)\.$/,
    );
    await checkWidths(page);

    await page.getByRole('button', { name: 'Manage billing' }).click();
    await page.waitForURL(`${server.url}/account/billing`);
    await checkWidths(page);
    // As the Customer Portal does by default: cancelled at the end of the period already paid for, not at once.
    await page.getByRole('button', { name: 'Cancel membership' }).click();
    await page.waitForURL(`${server.url}/account/billing`);
    expect(await page.textContent('#billing-status')).toBe('active');
    const endsOn = await page.textContent('#billing-ends');
    expect(endsOn).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
    expect(await page.textContent('#billing-note')).toContain(`ends on ${endsOn}`);
    expect(await page.getByRole('button', { name: 'Cancel membership' }).count()).toBe(0);
    await checkWidths(page);
    await page.goto(`${server.url}/account`);
    expect(await page.textContent('#tier')).not.toBe('No membership');
    expect(await page.textContent('#membership-ends')).toContain(`ends on ${endsOn}`);
    await checkWidths(page);
    await context.close();
  });

  it('adds a webhook (secret shown once), pings it to a loopback receiver, sees the delivery and removes it', async () => {
    const context = await loopbackContext();
    const page = await newPage(context);
    await page.goto(`${server.url}/account/webhooks`);
    expect(new URL(page.url()).searchParams.get('next')).toBe('/account/webhooks');
    await signIn(page, newEmail('hooks'));
    if (new URL(page.url()).pathname !== '/account/webhooks')
      await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.waitForURL(`${server.url}/account/webhooks`);
    await checkWidths(page);

    // The form's error path: what was typed kept, the message next to the field, a summary to jump from.
    await page.getByLabel('Endpoint URL').fill('ftp://example.com/hook');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    expect(await page.textContent('#webhook-url-error')).toBe('url must be an https URL');
    expect(await page.inputValue('#webhook-url')).toBe('ftp://example.com/hook');
    await checkWidths(page);

    const target = `${receiver.url}/browser-hook-with-a-long-path-that-must-wrap-on-a-narrow-screen`;
    await page.getByLabel('Endpoint URL').fill(target);
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await page.waitForURL(`${server.url}/account/webhooks`);
    const secret = await page.inputValue('#new-webhook-secret');
    expect(secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
    // The copy button appears only when the page's one script ran under its CSP.
    await expect.poll(() => page.getByRole('button', { name: 'Copy' }).isVisible()).toBe(true);
    await checkWidths(page);

    receiver.secret = secret;
    await page.getByRole('button', { name: 'Send test ping' }).click();
    await expect.poll(() => receiver.received.length).toBe(1);
    expect(receiver.received[0]!.verifyError).toBeUndefined();
    await expect
      .poll(async () => {
        await page.reload();
        return page.locator('table.deliveries').textContent();
      })
      .toContain('delivered (HTTP 200)');
    expect(await page.locator('#new-webhook-secret').count()).toBe(0);
    await checkWidths(page);

    await page.getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL(`${server.url}/account/webhooks`);
    expect(await page.locator('#no-webhooks').count()).toBe(1);
    await context.close();
  });

  it('works without JavaScript: buy a membership, add a webhook (secret readable, no copy button)', async () => {
    const context = await loopbackContext({ javaScriptEnabled: false });
    const page = await newPage(context);
    await page.goto(`${server.url}/account/sign-in`);
    await signIn(page, newEmail('nojs'));
    await page.goto(`${server.url}/account/membership?tier=memberFeature`);
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await page.waitForURL(/\/checkout\/cs_local_/);
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(`${server.url}/checkout/membership`);
    await page.goto(`${server.url}/account`);
    expect(await page.textContent('#tier')).toBe('Member with featured');
    expect(await page.textContent('#quota')).toBe('0 of 10');

    await page.goto(`${server.url}/account/webhooks`);
    await page.getByLabel('Endpoint URL').fill(`${receiver.url}/nojs`);
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await page.waitForURL(`${server.url}/account/webhooks`);
    expect(await page.inputValue('#new-webhook-secret')).toMatch(/^whsec_/);
    expect(await page.getByRole('button', { name: 'Copy' }).count()).toBe(0); // hidden without its script
    await context.close();
  });
});
