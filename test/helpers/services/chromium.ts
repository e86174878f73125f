// Locates a Chromium from the Debian package for browser tests (gate them with requireService(..., 'REQUIRE_BROWSER')).
import { chromium, type Browser, type LaunchOptions } from 'playwright-core';
import { findBinary } from './find-binary';

/** Path of chromium / chromium-browser / google-chrome, or null when none is installed. */
export function findChromium(): string | null {
  for (const name of ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome']) {
    const path = findBinary(name, ['/usr/bin', '/usr/local/bin']);
    if (path) return path;
  }
  return null;
}

/**
 * Headless Chromium for a loopback-only test: no background traffic, and (belt and braces for the network rule)
 * no host name but loopback resolves. Callers still route requests to record other origins.
 */
export function loopbackChromiumOptions(executablePath: string): LaunchOptions {
  return {
    executablePath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost',
    ],
  };
}

/**
 * A Chromium launched with loopbackChromiumOptions. Inside a vitest run this is a connection to the run's one
 * shared browser (test/helpers/services/chromium-broker.ts, started by test/global-setup.ts) instead of a launch
 * of its own: the caller uses it the same way, opens its own contexts, and `close()` ends its connection and
 * every context it opened. Elsewhere (test/tools/screenshots.ts) it launches a browser.
 */
export async function launchLoopbackChromium(executablePath: string): Promise<Browser> {
  const broker = await sharedBrowserBroker();
  if (!broker) return chromium.launch(loopbackChromiumOptions(executablePath));
  const res = await fetch(`${broker}/chromium?path=${encodeURIComponent(executablePath)}`);
  const answer = await res.text();
  if (!res.ok) throw new Error(`the shared Chromium did not start: ${answer}`);
  return chromium.connect(answer, { timeout: 60_000 });
}

/** The broker's address when running under vitest with test/global-setup.ts, else null. */
async function sharedBrowserBroker(): Promise<string | null> {
  if (!process.env.VITEST) return null;
  const { inject } = await import('vitest');
  return inject('chromiumBroker') ?? null;
}
