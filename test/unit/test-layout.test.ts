// The test tree mirrors the code it tests, so a test is found where its code is: test/functions/ mirrors
// functions/ (a route's tests in the folder of the route) and the service tests, test/unit/, mirror src/.
// A folder that is in neither tree fails here; the few that are not about one module are named below with why.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OWN_MODULES } from '../../vitest.config';

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

/** Every .ts file below test/ (benchmarks aside: they run outside vitest), as `test/a/b.ts`. */
function testSources(): string[] {
  return readdirSync(join(root, 'test'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.startsWith('bench/'))
    .map((file) => `test/${file.replaceAll('\\', '/')}`);
}

// Test files share their worker's module graph (vitest.config.ts): a module is evaluated once per worker, however
// many files import it.
describe('test files sharing a module graph', () => {
  it('find no hook at a helper module top level (it would be registered for the first file that imports it only)', () => {
    const hooked = testSources().filter(
      (file) =>
        !file.endsWith('.test.ts') &&
        /^(beforeAll|afterAll|beforeEach|afterEach)\(/m.test(readFileSync(join(root, file), 'utf8')),
    );
    expect(hooked).toEqual([]);
  });

  it('leave every file that mocks a module to a graph of its own, and name only such files', () => {
    const mocking = testSources().filter(
      (file) => file.endsWith('.test.ts') && /\bvi\.(mock|doMock)\(/.test(readFileSync(join(root, file), 'utf8')),
    );
    expect([...OWN_MODULES].sort()).toEqual(mocking.sort());
  });
});
