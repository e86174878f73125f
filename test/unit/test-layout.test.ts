// The test tree mirrors the code it tests, so a test is found where its code is: test/functions/ mirrors
// functions/ (a route's tests in the folder of the route) and the service tests, test/unit/, mirror src/.
// A folder that is in neither tree fails here; the few that are not about one module are named below with why.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');

/** Every folder below `top` (not `top` itself) with a file in it or below, as `a/b`. */
function foldersBelow(top: string): string[] {
  const found: string[] = [];
  const walk = (relative: string): boolean => {
    let holdsFiles = false;
    for (const entry of readdirSync(join(root, top, relative), { withFileTypes: true })) {
      if (!entry.isDirectory()) {
        holdsFiles = true;
        continue;
      }
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      // An empty folder left behind by a checkout of an older tree is not part of the layout.
      if (walk(path)) {
        found.push(path);
        holdsFiles = true;
      }
    }
    return holdsFiles;
  };
  walk('');
  return found.sort();
}

/** Folders of tests that are about a whole surface or the repository, not about one folder of code. */
const NOT_MIRRORED: Record<string, Record<string, string>> = {
  'test/functions': {
    fuzz: 'property-based fuzzing, one suite per surface over one shared harness (fuzz-app.ts)',
  },
  'test/unit': {
    docs: 'the Markdown of docs/ and README.md: links and the contract',
  },
};

describe.each([
  ['test/functions', 'functions'],
  ['test/unit', 'src'],
])('%s mirrors %s/', (tests, code) => {
  it('has no folder the code does not have', () => {
    const stray = foldersBelow(tests).filter((folder) => {
      const top = folder.split('/')[0]!;
      return !(top in NOT_MIRRORED[tests]!) && !foldersBelow(code).includes(folder);
    });
    expect(stray).toEqual([]);
  });

  it('names only exceptions that exist', () => {
    expect(Object.keys(NOT_MIRRORED[tests]!).filter((folder) => !foldersBelow(tests).includes(folder))).toEqual([]);
  });
});
