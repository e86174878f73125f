// Locates a Chromium from the Debian package for browser tests (gate them with requireService(..., 'REQUIRE_BROWSER')).
import { chromium, type Browser } from 'playwright-core';
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
 * Launches headless Chromium for a loopback-only test: no background traffic, and (belt and braces for the
 * network rule) no host name but loopback resolves. Callers still route requests to record other origins.
 */
export async function launchLoopbackChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({
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
  });
}
