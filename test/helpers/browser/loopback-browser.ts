// One Debian Chromium per browser suite, driven by playwright-core, that can only ever reach loopback: every request
// to another host is aborted and recorded (the suite asserts the list stays empty), and CSP reports are collected.
import type { Browser, BrowserContext, BrowserContextOptions } from 'playwright-core';
import { findChromium, launchLoopbackChromium } from '../services/chromium';

export const WIDE = { width: 1280, height: 900 } as const;
export const NARROW = { width: 390, height: 844 } as const;
const LOOPBACK = /^(127(\.\d{1,3}){3}|localhost|\[::1\])$/;

export interface LoopbackBrowser {
  browser: Browser;
  /** A fresh profile (its own cookies) whose requests stay on loopback. */
  newContext(options?: BrowserContextOptions): Promise<BrowserContext>;
  /** Requests the pages tried to send elsewhere (aborted). */
  offLoopback: string[];
  /** Console messages about the Content Security Policy. */
  cspViolations: string[];
  close(): Promise<void>;
}

export async function startLoopbackBrowser(): Promise<LoopbackBrowser> {
  const path = findChromium();
  if (!path) throw new Error('No Chromium (apt-get install chromium)');
  const browser = await launchLoopbackChromium(path);
  const offLoopback: string[] = [];
  const cspViolations: string[] = [];
  return {
    browser,
    offLoopback,
    cspViolations,
    async newContext(options = {}) {
      const context = await browser.newContext({ viewport: WIDE, ...options });
      await context.route('**/*', (route) => {
        const url = new URL(route.request().url());
        if (url.protocol === 'data:' || LOOPBACK.test(url.hostname)) return route.continue();
        offLoopback.push(url.href);
        return route.abort();
      });
      context.on('page', (page) =>
        page.on('console', (message) => {
          if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
        }),
      );
      return context;
    },
    close: () => browser.close(),
  };
}
