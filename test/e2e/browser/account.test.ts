import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startNodeServer, type NodeServer } from '../../../functions/node';
import { mailedCodeFor } from '../../helpers/mailed-code';
import { launchLoopbackChromium } from '../../helpers/services/chromium';

// The account area in a real browser: Debian's Chromium driven by playwright-core (no browser download).
const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
const requireBrowser = process.env.REQUIRE_BROWSER === '1';
if (!hasChromium && !requireBrowser) {
  console.log(
    `SKIP browser tests: ${CHROMIUM} not found (apt-get install -y chromium; REQUIRE_BROWSER=1 makes this a failure)`,
  );
}

describe.runIf(!hasChromium && requireBrowser)('browser required', () => {
  it(`finds Chromium at ${CHROMIUM} (REQUIRE_BROWSER=1)`, () => {
    expect(existsSync(CHROMIUM)).toBe(true);
  });
});

const LOOPBACK = /^(127(\.\d{1,3}){3}|localhost|\[::1\])$/;

describe.runIf(hasChromium)('account area in Chromium', () => {
  let server: NodeServer;
  let browser: Browser;
  let context: BrowserContext;
  let dataDir: string;
  const offLoopback: string[] = [];
  const cspViolations: string[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tooldir-browser-'));
    cpSync(inject('pgliteTemplate'), join(dataDir, 'pglite'), { recursive: true });
    server = await startNodeServer({ HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    browser = await launchLoopbackChromium(CHROMIUM);
    context = await loopbackContext();
  });

  /** A fresh browser profile (its own cookies) whose every request must stay on loopback. */
  const loopbackContext = async () => {
    const fresh = await browser.newContext();
    await fresh.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (LOOPBACK.test(url.hostname)) return route.continue();
      offLoopback.push(url.href);
      return route.abort();
    });
    return fresh;
  };

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const codeFor = (email: string, page: Page) => mailedCodeFor(server.deps.db, email, page);
  const callApi = (key: string) => fetch(`${server.url}/api/v1/sites`, { headers: { authorization: `Bearer ${key}` } });

  it('signs in with the mailed code, creates a key shown once, uses it, revokes it and sees the API refuse it', async () => {
    const page = await context.newPage();
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text());
    });
    const email = `browser-${crypto.randomUUID().slice(0, 8)}@example.com`;

    await page.goto(`${server.url}/account`);
    expect(new URL(page.url()).pathname).toBe('/account/sign-in');
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Send code' }).click();
    await expect.poll(() => page.textContent('main')).toContain(`We sent a 6-digit code to ${email}`);

    await page.getByLabel('Code').fill(await codeFor(email, page));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${server.url}/account`);
    expect(await page.textContent('nav.sub')).toContain(email);
    const session = (await context.cookies()).find((c) => c.name === 'tooldir_session')!;
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });

    await page.getByRole('link', { name: 'Manage your API keys' }).click();
    await page.getByLabel('Name').fill('browser test');
    await page.getByRole('button', { name: 'Create a key' }).click();
    const field = page.locator('#new-key-value');
    const key = await field.inputValue();
    expect(key).toMatch(/^tdk_[0-9A-Za-z]{22}$/);
    // The copy button only appears when the nonce'd script ran under the page's CSP.
    const copy = page.getByRole('button', { name: 'Copy' });
    await expect.poll(() => copy.isVisible()).toBe(true);

    await page.reload();
    expect(await page.locator('#new-key-value').count()).toBe(0);
    expect(await page.content()).not.toContain(key);
    expect(await page.locator('tr[data-key-id]').count()).toBe(1);

    expect((await callApi(key)).status).toBe(200);

    await page.getByRole('button', { name: 'Revoke' }).click();
    await page.waitForURL(`${server.url}/account/keys`);
    expect(await page.locator('tr[data-key-id]').textContent()).toContain('revoked');

    const refused = await callApi(key);
    expect(refused.status).toBe(401);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/account\/sign-in/);
    expect(await page.textContent('main')).toContain('You are signed out');
    await page.goto(`${server.url}/account`);
    expect(new URL(page.url()).pathname).toBe('/account/sign-in');

    expect(cspViolations).toEqual([]);
    expect(offLoopback).toEqual([]);
  });

  it("a stranger's wrong codes for the owner's address do not keep the owner out", async () => {
    const email = `owner-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const askForCode = async (page: Page) => {
      await page.goto(`${server.url}/account/sign-in`);
      await page.getByLabel('E-mail').fill(email);
      await page.getByRole('button', { name: 'Send code' }).click();
      await expect.poll(() => page.textContent('main')).toContain('works only in this browser');
    };

    const strangerContext = await loopbackContext();
    const stranger = await strangerContext.newPage();
    await askForCode(stranger);
    const strangersCode = await codeFor(email, stranger); // known to the test only, to be sure never to type it
    const wrong = strangersCode === '000000' ? '111111' : '000000';
    for (const answer of ['4 tries left', '3 tries left', '2 tries left', '1 try left', 'Too many wrong codes']) {
      await stranger.getByLabel('Code').fill(wrong);
      await stranger.getByRole('button', { name: 'Sign in' }).click();
      await expect.poll(() => stranger.textContent('main')).toContain(answer);
    }
    await strangerContext.close();

    const ownerContext = await loopbackContext();
    const owner = await ownerContext.newPage();
    await askForCode(owner);
    await owner.getByLabel('Code').fill(await codeFor(email, owner));
    await owner.getByRole('button', { name: 'Sign in' }).click();
    await owner.waitForURL(`${server.url}/account`);
    expect(await owner.textContent('nav.sub')).toContain(email);
    await ownerContext.close();
    expect(offLoopback).toEqual([]);
  });
});
