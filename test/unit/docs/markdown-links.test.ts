// The docs are complete in the repository (issue 28): every relative link of every Markdown file resolves (file and
// #anchor, by GitHub's slug rules), no file sends its reader to ../shared/ (a clone does not have it; code comments
// neither), and every repository path the docs name exists, so a renamed or deleted file cannot leave a stale pointer
// behind.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  citedPaths,
  isExternal,
  isLineAnchor,
  namesSharedFolder,
  readMarkdown,
  resolveReference,
  type MarkdownFacts,
} from './markdown';

const root = resolve(import.meta.dirname, '../../..');

/** Tracked files and those about to be (untracked, not ignored): what a clone of the branch holds. */
const repoFiles = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
  cwd: root,
  maxBuffer: 64 * 2 ** 20,
})
  .toString('utf8')
  .split('\0')
  .filter(Boolean);

interface Repo {
  files: Set<string>;
  folders: Set<string>;
  topFolders: string[];
  /** Whether some file's path starts with `prefix` (a path cut short by a placeholder). */
  someStartsWith(prefix: string): boolean;
  read(path: string): string;
}

function repoOf(files: string[], read: (path: string) => string): Repo {
  const folders = new Set<string>(['.']);
  for (const file of files) {
    const parts = file.split('/');
    for (let i = 1; i < parts.length; i++) folders.add(parts.slice(0, i).join('/'));
  }
  const topFolders = [...new Set(files.filter((file) => file.includes('/')).map((file) => file.split('/')[0]!))].filter(
    (folder) => folder !== 'node_modules',
  );
  const sorted = [...files].sort();
  const someStartsWith = (prefix: string) => {
    // The first path not below `prefix` in sort order is the only candidate that can start with it.
    let low = 0;
    let high = sorted.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (sorted[mid]! < prefix) low = mid + 1;
      else high = mid;
    }
    return sorted[low]?.startsWith(prefix) ?? false;
  };
  return { files: new Set(files), folders, topFolders, someStartsWith, read };
}

/** What each Markdown file of `repo` links to and offers, each file parsed once. */
function factsOf(repo: Repo): (path: string) => MarkdownFacts {
  const cache = new Map<string, MarkdownFacts>();
  return (path) => {
    if (!cache.has(path)) cache.set(path, readMarkdown(repo.read(path)));
    return cache.get(path)!;
  };
}

/** Every problem of the Markdown files of `repo`, as `file:line: what`. */
function problems(
  repo: Repo,
  markdownFiles: string[],
  { citations }: { citations: boolean },
  facts = factsOf(repo),
): string[] {
  const found: string[] = [];
  for (const file of markdownFiles) {
    const source = repo.read(file);
    source.split('\n').forEach((text, i) => {
      if (namesSharedFolder(text)) found.push(`${file}:${i + 1}: names the shared/ folder outside the repository`);
    });
    for (const { url, line } of facts(file).references) {
      if (isExternal(url)) continue;
      const target = resolveReference(file, url);
      const at = `${file}:${line}: ${url}`;
      if (target === 'outside') {
        found.push(`${at}: points outside the repository`);
        continue;
      }
      const isFile = repo.files.has(target.path);
      if (!isFile && !repo.folders.has(target.path)) {
        found.push(`${at}: no file ${target.path}`);
        continue;
      }
      if (target.fragment === '') continue;
      if (isFile && target.path.endsWith('.md')) {
        if (!facts(target.path).anchors.has(target.fragment))
          found.push(`${at}: no heading #${target.fragment} in ${target.path}`);
      } else if (!isLineAnchor(target.fragment))
        found.push(`${at}: #${target.fragment} is not an anchor of ${target.path}`);
    }
    if (!citations) continue;
    for (const { url: text, line } of facts(file).texts) {
      for (const { path, prefix } of citedPaths(text, repo.topFolders)) {
        const bare = path.replace(/\/$/, '');
        const exists = prefix ? repo.someStartsWith(path) : repo.files.has(bare) || repo.folders.has(bare);
        if (!exists) found.push(`${file}:${line}: names ${path}, which does not exist`);
      }
    }
  }
  return found;
}

describe('the checker (it can fail)', () => {
  const fixture: Record<string, string> = {
    'README.md': [
      '# Title',
      'See [the guide](docs/guide.md#setting-up) and [a typo](docs/guide.md#seting-up).',
      'A [missing file](docs/gone.md), [outside](../shared/spec/DECISIONS.md) and `../shared/spec/x.md` in code.',
      '<img src="docs/shot.png" alt=""> <a href="#title">top</a> [self](#nope) [line](src/a.ts#L3) [bad](src/a.ts#top)',
      '`[not a link](docs/gone.md)` and `src/a.ts`, `src/b.ts`, `src/{x,y}`, `src/q*`, https://x.test/src/zz.ts.',
      '```',
      '[no](docs/gone.md) src/c.ts',
      '```',
    ].join('\n'),
    'docs/guide.md':
      '# Guide\n## Setting up\n## Setting up\n[again](#setting-up-1) [root](/README.md#title) [up](../README.md)',
    'src/a.ts': '',
  };
  const repo = repoOf(Object.keys(fixture), (path) => fixture[path] ?? '');

  it('reports missing files and anchors, ../shared and nonexistent cited paths, and passes the rest', () => {
    expect(problems(repo, ['README.md', 'docs/guide.md'], { citations: true })).toEqual([
      'README.md:3: names the shared/ folder outside the repository',
      'README.md:2: docs/guide.md#seting-up: no heading #seting-up in docs/guide.md',
      'README.md:3: docs/gone.md: no file docs/gone.md',
      'README.md:3: ../shared/spec/DECISIONS.md: points outside the repository',
      'README.md:4: docs/shot.png: no file docs/shot.png',
      'README.md:4: #nope: no heading #nope in README.md',
      'README.md:4: src/a.ts#top: #top is not an anchor of src/a.ts',
      'README.md:5: names docs/gone.md, which does not exist',
      'README.md:5: names src/b.ts, which does not exist',
      'README.md:5: names src/q, which does not exist',
      'README.md:7: names docs/gone.md, which does not exist',
      'README.md:7: names src/c.ts, which does not exist',
    ]);
  });

  it('reads anchors by GitHub slug rules', () => {
    const { anchors } = readMarkdown(
      '# The webhook: `POST /api/webhooks/stripe`\n## Caching and rate limits\n## Caching and rate limits\n<a id="custom"></a>',
    );
    expect([...anchors]).toEqual([
      'the-webhook-post-apiwebhooksstripe',
      'caching-and-rate-limits',
      'caching-and-rate-limits-1',
      'custom',
    ]);
  });
});

describe('the Markdown files of the repository', () => {
  const repo = repoOf(repoFiles, (path) => readFileSync(join(root, path), 'utf8'));
  const markdownFiles = repoFiles.filter((file) => file.endsWith('.md') && !file.startsWith('node_modules/'));

  it('are found', () => {
    expect(markdownFiles).toContain('README.md');
    expect(markdownFiles.filter((file) => file.startsWith('docs/')).length).toBeGreaterThan(10);
  });

  it('and no other text file of the repository (code comments included) points into ../shared/', () => {
    // The checker's own files spell the pattern they look for.
    const own = new Set(['test/unit/docs/markdown.ts', 'test/unit/docs/markdown-links.test.ts']);
    const found: string[] = [];
    for (const file of repoFiles) {
      if (own.has(file) || file.endsWith('.md')) continue;
      const bytes = readFileSync(join(root, file));
      if (bytes.includes(0)) continue; // binary: images, fonts
      bytes
        .toString('utf8')
        .split('\n')
        .forEach((text, i) => {
          if (namesSharedFolder(text)) found.push(`${file}:${i + 1}`);
        });
    }
    expect(found).toEqual([]);
  });

  // One test per file: a failure names its file, and a slow parse of a long file has its own time budget.
  const facts = factsOf(repo);
  it.each(markdownFiles)(
    '%s links only to files and anchors that exist, never to ../shared/, and names only paths that exist',
    (file) => {
      expect(problems(repo, [file], { citations: true }, facts)).toEqual([]);
    },
  );
});
