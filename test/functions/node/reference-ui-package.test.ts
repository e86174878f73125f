import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createPackageDocsAssets } from '../../../functions/node/docs-assets';
import { findPackageDir, referenceUiFile } from '../../../functions/node/reference-ui-package';
import { REFERENCE_UI_ASSET, REFERENCE_UI_PACKAGE, REFERENCE_UI_VERSION } from '../../../functions/v1/reference-ui';

// The reference UI comes from the npm package pinned exactly in package.json and package-lock.json, and is found
// from the sources and from the server bundle in dist/node/ (docs/mcp-and-search.md "The API reference").
const root = resolve(import.meta.dirname, '../../..');
const dir = mkdtempSync(join(tmpdir(), 'tooldir-reference-ui-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A fake project with the package installed at `version` (or not at all). */
function fakeProject(name: string, version?: string) {
  const project = join(dir, name);
  mkdirSync(join(project, 'dist', 'node'), { recursive: true });
  if (version) {
    const pkg = join(project, 'node_modules', REFERENCE_UI_PACKAGE);
    mkdirSync(join(pkg, 'dist', 'browser'), { recursive: true });
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: REFERENCE_UI_PACKAGE, version }));
    writeFileSync(join(pkg, 'dist', 'browser', 'standalone.js'), `/* ${version} */`);
  }
  return project;
}

describe('the pin', () => {
  it('is an exact version in package.json, the same in package-lock.json (with its integrity), and installed', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
    expect(manifest.dependencies[REFERENCE_UI_PACKAGE]).toMatch(/^\d+\.\d+\.\d+$/);
    expect(REFERENCE_UI_VERSION).toBe(manifest.dependencies[REFERENCE_UI_PACKAGE]);
    expect(lock.packages[''].dependencies[REFERENCE_UI_PACKAGE]).toBe(REFERENCE_UI_VERSION);
    expect(lock.packages[`node_modules/${REFERENCE_UI_PACKAGE}`]).toMatchObject({
      version: REFERENCE_UI_VERSION,
      integrity: expect.stringMatching(/^sha512-/),
    });
    expect(
      JSON.parse(readFileSync(join(root, 'node_modules', REFERENCE_UI_PACKAGE, 'package.json'), 'utf8')).version,
    ).toBe(REFERENCE_UI_VERSION);
  });
});

describe('referenceUiFile', () => {
  it('finds the installed browser bundle from the sources and from the server bundle folder', () => {
    const expected = join(root, 'node_modules', REFERENCE_UI_PACKAGE, 'dist', 'browser', 'standalone.js');
    expect(referenceUiFile()).toBe(expected);
    expect(referenceUiFile(join(root, 'dist', 'node'))).toBe(expected);
  });

  it('walks up to the nearest node_modules like Node does', () => {
    const project = fakeProject('walk', REFERENCE_UI_VERSION);
    expect(findPackageDir(join(project, 'dist', 'node'), REFERENCE_UI_PACKAGE)).toBe(
      join(project, 'node_modules', REFERENCE_UI_PACKAGE),
    );
    expect(findPackageDir(join(project, 'dist', 'node'), '@scalar/not-a-package')).toBeNull();
  });

  it('refuses another installed version: the served name carries the pinned one and is cached for a year', () => {
    const project = fakeProject('other-version', '0.0.1');
    expect(() => referenceUiFile(join(project, 'dist', 'node'))).toThrow(
      `${REFERENCE_UI_PACKAGE} 0.0.1 is installed but package.json pins ${REFERENCE_UI_VERSION} (run npm install)`,
    );
  });

  it('says how to fix a missing package', () => {
    const project = fakeProject('missing');
    expect(() => referenceUiFile(join(project, 'dist', 'node'))).toThrow(
      `${REFERENCE_UI_PACKAGE} is not installed (run npm install)`,
    );
  });
});

describe('createPackageDocsAssets', () => {
  it('serves only the versioned file name, from the package', async () => {
    const project = fakeProject('serve', REFERENCE_UI_VERSION);
    const source = createPackageDocsAssets(join(project, 'dist', 'node'));
    const asset = await source(REFERENCE_UI_ASSET);
    expect(Buffer.from(asset!.body).toString()).toBe(`/* ${REFERENCE_UI_VERSION} */`);
    expect(asset!.contentType).toBe('text/javascript; charset=utf-8');
    expect(await source('standalone.js')).toBeNull();
    expect(await source('../package.json')).toBeNull();
  });

  it('fails while the package is missing and serves it once installed (no restart needed for the retry)', async () => {
    const project = fakeProject('late');
    const source = createPackageDocsAssets(join(project, 'dist', 'node'));
    await expect(source(REFERENCE_UI_ASSET)).rejects.toThrow(/is not installed/);
    const pkg = join(project, 'node_modules', REFERENCE_UI_PACKAGE);
    mkdirSync(join(pkg, 'dist', 'browser'), { recursive: true });
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ version: REFERENCE_UI_VERSION }));
    writeFileSync(join(pkg, 'dist', 'browser', 'standalone.js'), 'late');
    expect(Buffer.from((await source(REFERENCE_UI_ASSET))!.body).toString()).toBe('late');
  });
});
