// docs/architecture.md cannot drift from the tree: every folder of src/ and functions/ that holds code is named in
// it, every folder its table names exists, every file at the top of src/ and in bin/ has its line, and every layer
// rule of .dependency-cruiser.cjs is described there.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const doc = readFileSync(join(root, 'docs/architecture.md'), 'utf8');

/** Every folder under `top` (itself included) with at least one file in it or below, as `top/a/b/`. */
function codeFolders(top: string): string[] {
  const found: string[] = [];
  const walk = (relative: string): boolean => {
    let holdsFiles = false;
    for (const entry of readdirSync(join(root, relative), { withFileTypes: true })) {
      if (entry.isDirectory()) holdsFiles = walk(`${relative}/${entry.name}`) || holdsFiles;
      else holdsFiles = true;
    }
    // An empty folder left behind by a checkout of an older tree is not part of the design.
    if (holdsFiles) found.push(`${relative}/`);
    return holdsFiles;
  };
  walk(top);
  return found.sort();
}

/** The folders the table "Every folder in one line" names, in its first column. */
const tableFolders = [...doc.matchAll(/^\| `((?:src|functions)\/(?:[^`]*\/)?)` \|/gm)].map((m) => m[1]!);

/** The files the table "The files at the top of src/ and bin/" names, in its first column. */
const tableFiles = [...doc.matchAll(/^\| `((?:src|bin)\/[^`/]+\.[a-z.]+)` \|/gm)].map((m) => m[1]!);

/** The files directly in `folder` (not below it). */
const filesIn = (folder: string) =>
  readdirSync(join(root, folder), { withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => `${folder}/${entry.name}`)
    .sort();

describe('docs/architecture.md', () => {
  it.each(['src', 'functions'])('names every folder of %s/ in its folder table', (top) => {
    const folders = codeFolders(top);
    expect(folders.length).toBeGreaterThan(10);
    expect(folders.filter((folder) => !tableFolders.includes(folder))).toEqual([]);
  });

  it('names only folders that exist, each once', () => {
    const existing = new Set([...codeFolders('src'), ...codeFolders('functions')]);
    expect(tableFolders.filter((folder) => !existing.has(folder))).toEqual([]);
    expect(new Set(tableFolders).size).toBe(tableFolders.length);
  });

  it.each(['src', 'bin'])('gives every file directly in %s/ its line, and names only files that exist', (folder) => {
    const files = filesIn(folder);
    expect(files.length).toBeGreaterThan(3);
    expect(files.filter((file) => !tableFiles.includes(file))).toEqual([]);
    expect(tableFiles.filter((file) => file.startsWith(`${folder}/`) && !files.includes(file))).toEqual([]);
  });

  it('describes every rule that npm run lint:deps holds', () => {
    const config = createRequire(import.meta.url)(join(root, '.dependency-cruiser.cjs')) as {
      forbidden: { name: string }[];
    };
    const names = [...new Set(config.forbidden.map((rule) => rule.name))];
    expect(names.length).toBeGreaterThan(5);
    expect(names.filter((name) => !doc.includes(`**${name}**`))).toEqual([]);
  });
});
