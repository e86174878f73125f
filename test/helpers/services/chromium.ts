// Locates a Chromium from the Debian package for browser tests (gate them with requireService(..., 'REQUIRE_BROWSER')).
import { findBinary } from './find-binary';

/** Path of chromium / chromium-browser / google-chrome, or null when none is installed. */
export function findChromium(): string | null {
  for (const name of ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome']) {
    const path = findBinary(name, ['/usr/bin', '/usr/local/bin']);
    if (path) return path;
  }
  return null;
}
