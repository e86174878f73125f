import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isNodeBundleStale } from '../../bin/node-bundle.js';

// `npm start` loads a prebuilt bundle; it must never run one older than the sources.
const dir = mkdtempSync(join(tmpdir(), 'tooldir-bundle-age-'));
const bundle = join(dir, 'server.mjs');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('isNodeBundleStale', () => {
  it('is stale when the bundle does not exist', () => {
    expect(isNodeBundleStale(join(dir, 'missing.mjs'))).toBe(true);
  });

  it('is stale when any source is newer than the bundle', () => {
    writeFileSync(bundle, '');
    const longAgo = new Date('2001-01-01T00:00:00Z');
    utimesSync(bundle, longAgo, longAgo);
    expect(isNodeBundleStale(bundle)).toBe(true);
  });

  it('is fresh when the bundle is newer than every source', () => {
    writeFileSync(bundle, '');
    const later = new Date(Date.now() + 3_600_000);
    utimesSync(bundle, later, later);
    expect(isNodeBundleStale(bundle)).toBe(false);
  });
});
