import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { isNodeBundleStale } from '../../bin/server/node-bundle.js';
import { cliBundlePath, isCliBundleStale } from '../../bin/cli/cli-bundle.js';

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

describe('buildNodeBundle', () => {
  // After a build the process that goes on to serve must not carry esbuild's service process along
  // (a killed server once left it running). Linux lists a thread's children in /proc.
  it.runIf(existsSync('/proc/self/task'))(
    'leaves no esbuild child process behind',
    async () => {
      const script = `
      const { buildNodeBundle } = await import('./bin/server/node-bundle.js');
      await buildNodeBundle();
      const { readFileSync } = await import('node:fs');
      const children = () => readFileSync('/proc/self/task/' + process.pid + '/children', 'utf8').trim();
      for (let i = 0; i < 40 && children(); i++) await new Promise((r) => setTimeout(r, 50)); // exiting takes a moment
      console.log(JSON.stringify(children()));`;
      const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
        cwd: join(import.meta.dirname, '../..'),
      });
      expect(JSON.parse(stdout.trim())).toBe('');
    },
    60_000,
  );
});

describe('the tooldir command from its bundle', () => {
  it('is stale like the server bundle: missing, or older than a source', () => {
    expect(isCliBundleStale(join(dir, 'missing.mjs'))).toBe(true);
    const old = join(dir, 'cli.mjs');
    writeFileSync(old, '');
    const longAgo = new Date('2001-01-01T00:00:00Z');
    utimesSync(old, longAgo, longAgo);
    expect(isCliBundleStale(old)).toBe(true);
  });

  it("runs the prebuilt bundle (made by the run's setup) and answers as the sources do", async () => {
    expect(isCliBundleStale()).toBe(false);
    const { stdout } = await promisify(execFile)(process.execPath, ['bin/cli/tooldir.js', '--version'], {
      cwd: join(import.meta.dirname, '../..'),
    });
    const { version } = JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8')) as {
      version: string;
    };
    expect(stdout.trim()).toContain(version);
    expect(existsSync(cliBundlePath)).toBe(true);
  });
});
