// Small things a maker sees (issue 31 points 4, 6, 7), in Chromium at 1280 and 390 px with axe-core: the focus ring
// is not the error colour; "Sign out" sits in the same place on every account page, narrow column or wide; the
// submission in review shows the text that will be published; the code page says where a local code is printed;
// /account without a membership says what the person can do.
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

const chromiumPath = findChromium();
const describeBrowser = requireService('Chromium', chromiumPath !== null, 'REQUIRE_BROWSER');
const ADMIN = 'browser-admin-token-maker-0123456789abcdef';
const WIDTHS = [
  [1280, 900],
  [390, 844],
] as const;

describeBrowser('what a maker sees, in Chromium', () => {
  let server: NodeServer;
  let browser: Browser;
  let dataDir: string;
  const offOrigin: string[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tooldir-maker-browser-'));
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
    });

  async function signedIn(tier: 'none' | 'member') {
    const email = `maker-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const account = (await (
      await api('/api/v1/admin/accounts', { method: 'POST', key: ADMIN, json: { email, tier } })
    ).json()) as { account_id: string };
    const { key } = (await (
      await api(`/api/v1/admin/accounts/${account.account_id}/keys`, { method: 'POST', key: ADMIN })
    ).json()) as { key: string };
    const page = await (await profile()).newPage();
    await page.goto(`${server.url}/account/sign-in`);
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.waitForURL(/\/account\/sign-in$/);
    const codePage = { notice: await page.textContent('#code-where') };
    await page.getByLabel('Code').fill(await mailedCodeFor(server.deps.db, email, page));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${server.url}/account`);
    return { key, page, codePage };
  }

  async function checkBoth(page: Page) {
    for (const [width, height] of WIDTHS) {
      await page.setViewportSize({ width, height });
      await expectFitsViewport(page, width);
      await expectNoAxeViolations(page);
    }
  }

  /** "r, g, b" of a CSS colour as Chromium computes it. */
  const rgb = (css: string) =>
    css
      .match(/\d+(\.\d+)?/g)!
      .slice(0, 3)
      .map(Number);
  /** Hue in degrees (0 red … 120 green … 240 blue). */
  function hue([r, g, b]: number[]): number {
    const [R, G, B] = [r! / 255, g! / 255, b! / 255];
    const max = Math.max(R, G, B);
    const d = max - Math.min(R, G, B);
    if (d === 0) return 0;
    const h = max === R ? ((G - B) / d) % 6 : max === G ? (B - R) / d + 2 : (R - G) / d + 4;
    return (h * 60 + 360) % 360;
  }

  it('the focus ring is not the error colour, in the light and the dark scheme, next to a field in error', async () => {
    const { page } = await signedIn('member');
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(`${server.url}/submit`);
      await page
        .getByRole('button', { name: /Submit|Continue/ })
        .first()
        .click(); // an empty form: every field in error
      // The form posts to the server: wait for the answer page, or the focus below lands on the page being left.
      await page.locator('#url-error').waitFor();
      await page.locator('#url').focus();
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Tab'); // keyboard focus: :focus-visible
      const seen = await page.evaluate(() => {
        const input = document.querySelector('#url')!;
        if (document.activeElement !== input) throw new Error(`focus is on ${document.activeElement?.id}, not #url`);
        const error = document.querySelector('#url-error')!;
        return {
          ring: getComputedStyle(input).outlineColor,
          width: getComputedStyle(input).outlineWidth,
          errorText: getComputedStyle(error).color,
          errorBorder: getComputedStyle(input).borderColor,
        };
      });
      expect(seen.width).toBe('3px');
      const ring = hue(rgb(seen.ring));
      for (const error of [seen.errorText, seen.errorBorder]) {
        const h = hue(rgb(error));
        const apart = Math.min(Math.abs(ring - h), 360 - Math.abs(ring - h));
        expect(apart, `${scheme}: ring ${seen.ring} vs error ${error}`).toBeGreaterThan(90);
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('"Sign out" is in the same place on every account page, at 1280 and 390 px', async () => {
    const { key, page } = await signedIn('member');
    const submitted = (await (
      await api('/api/v1/submit-site', {
        method: 'POST',
        key,
        json: {
          name: `Placed ${crypto.randomUUID().slice(0, 6)}`,
          url: `https://placed-${crypto.randomUUID().slice(0, 8)}.example/`,
        },
      })
    ).json()) as { site_id: string };
    const pages = [
      '/account',
      '/account/keys',
      '/account/webhooks',
      `/account/submissions/${submitted.site_id}`,
      '/account/membership?tier=memberFeature',
      '/account/billing',
    ];
    for (const [width, height] of WIDTHS) {
      await page.setViewportSize({ width, height });
      const boxes: string[] = [];
      for (const path of pages) {
        await page.goto(`${server.url}${path}`);
        const box = await page.getByRole('button', { name: 'Sign out' }).boundingBox();
        expect(box, path).not.toBeNull();
        boxes.push(`${Math.round(box!.x)},${Math.round(box!.y)}`);
      }
      expect(new Set(boxes), `${width} px: ${pages.map((p, i) => `${p} ${boxes[i]}`).join('; ')}`).toHaveProperty(
        'size',
        1,
      );
    }
  });

  it('in review, the submission page shows the text that will be published and the edit form; the code page says where a local code is', async () => {
    const { page, codePage } = await signedIn('none');
    // This server logs nothing (LOG_LEVEL=silent), so the code is only in the outbox table, and the page says so.
    expect(codePage.notice).toBe(
      'No e-mail leaves this machine: each sign-in code is kept in the mail_outbox table (LOG_LEVEL=silent keeps it out of the terminal).',
    );
    await page.goto(`${server.url}/account`);
    expect(await page.textContent('#no-membership')).toMatch(
      /^You have no membership\. You can still submit any tool and pay for each one/,
    );
    await checkBoth(page);

    const member = await signedIn('member');
    const res = (await (
      await api('/api/v1/submit-site', {
        method: 'POST',
        key: member.key,
        json: { name: 'Storyboard Studio', url: `https://storyboard-${crypto.randomUUID().slice(0, 8)}.example/` },
      })
    ).json()) as { site_id: string };
    await moveSite(server.deps, res.site_id, 'pending_review');
    await member.page.goto(`${server.url}/account/submissions/${res.site_id}`);
    expect(await member.page.textContent('#preview-title')).toBe('What will be published');
    expect(await member.page.isVisible('#edit-description')).toBe(true);
    await checkBoth(member.page);
  });
});
