// A clean install on Node 20 (issue 21): every package in package-lock.json supports the Node versions package.json
// declares, so `npm install` / `npm ci` print no EBADENGINE warning. Checked at both ends of each declared range,
// with npm's own range semantics (semver), and for the Node running the tests.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<
    string,
    { version?: string; engines?: { node?: string } | string[]; optional?: boolean; os?: string[] }
  >;
};

/** The lowest version of each declared range (`^20.19.0 || >=22.13.0` → 20.19.0 and 22.13.0). */
const floors = pkg.engines.node.split('||').map((range) => semver.minVersion(range.trim())!.version);

describe('engines', () => {
  it('declares Node 20 (from 20.19) and 22 (from 22.13), and the Node running this satisfies it', () => {
    expect(floors).toEqual(['20.19.0', '22.13.0']);
    expect(semver.satisfies(process.versions.node, pkg.engines.node)).toBe(true);
  });

  it.each(floors)('every locked package supports Node %s', (floor) => {
    const refusing = Object.entries(lock.packages)
      .filter(([path, entry]) => path !== '' && !Array.isArray(entry.engines) && entry.engines?.node)
      .filter(
        ([, entry]) => !semver.satisfies(floor, (entry.engines as { node: string }).node, { includePrerelease: true }),
      )
      .map(
        ([path, entry]) =>
          `${path.replace(/^.*node_modules\//, '')}@${entry.version}: node ${(entry.engines as { node: string }).node}`,
      );
    expect(refusing).toEqual([]);
  });
});
