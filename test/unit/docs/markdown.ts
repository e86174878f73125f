// What a Markdown file links to and which anchors it offers, read the way GitHub renders it: a real CommonMark + GFM
// parser (mdast-util-from-markdown, the parser remark uses), so code spans and fenced blocks are not mistaken for
// links, and heading anchors by github-slugger, the package that reproduces GitHub's slug rules (lower case,
// punctuation dropped, spaces to hyphens, `-1`, `-2` for repeated headings).
import { posix } from 'node:path';
import GithubSlugger from 'github-slugger';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { toString } from 'mdast-util-to-string';
import { gfm } from 'micromark-extension-gfm';

type Root = ReturnType<typeof fromMarkdown>;
type Node = Root['children'][number] | Root;

export interface Reference {
  /** The URL as written (a link, image, link definition, or an href/src attribute of inline HTML). */
  url: string;
  line: number;
}

export interface MarkdownFacts {
  /** Every fragment a link into this file may name: heading slugs and ids of inline HTML. */
  anchors: Set<string>;
  references: Reference[];
  /** Runs of text, inline code and code blocks with their first line: where a file names a repository path. */
  texts: Reference[];
}

const attribute = (name: string) => new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, 'gi');

/** Parses one Markdown file into the anchors it offers and the references it makes. */
export function readMarkdown(source: string): MarkdownFacts {
  const tree = fromMarkdown(source, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  const slugger = new GithubSlugger();
  const lines = source.split('\n');
  const facts: MarkdownFacts = { anchors: new Set(), references: [], texts: [] };
  const walk = (node: Node): void => {
    const line = node.position?.start.line ?? 0;
    if (node.type === 'heading') facts.anchors.add(slugger.slug(toString(node)));
    if (node.type === 'link' || node.type === 'image' || node.type === 'definition')
      facts.references.push({ url: node.url, line });
    if (node.type === 'html') {
      for (const name of ['id', 'name'])
        for (const m of node.value.matchAll(attribute(name))) facts.anchors.add(m[1] ?? m[2] ?? '');
      for (const name of ['href', 'src'])
        for (const m of node.value.matchAll(attribute(name))) facts.references.push({ url: m[1] ?? m[2] ?? '', line });
    }
    if (node.type === 'text' || node.type === 'inlineCode' || node.type === 'code') {
      // A fenced block's text starts on the line after its fence; one entry per line keeps line numbers exact.
      const first = node.type === 'code' && /^\s*(`{3,}|~{3,})/.test(lines[line - 1] ?? '') ? line + 1 : line;
      node.value.split('\n').forEach((text, i) => facts.texts.push({ url: text, line: first + i }));
    }
    if ('children' in node) for (const child of node.children) walk(child);
  };
  walk(tree);
  return facts;
}

/** A reference that leaves the page: a scheme (`https:`, `mailto:`) or a protocol-relative `//host`. */
export const isExternal = (url: string) => /^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('//');

/**
 * Where a relative reference made in `file` points, as a repository path and a fragment (both decoded). A path
 * starting with `/` is from the repository root, as GitHub reads it. `outside` when it climbs above the root.
 */
export function resolveReference(file: string, url: string): { path: string; fragment: string } | 'outside' {
  const [beforeHash = '', ...rest] = url.split('#');
  const fragment = decodeURIComponent(rest.join('#'));
  const pathPart = decodeURIComponent(beforeHash.split('?')[0] ?? '');
  if (pathPart === '') return { path: file, fragment };
  const joined = pathPart.startsWith('/')
    ? posix.normalize(pathPart.slice(1))
    : posix.join(posix.dirname(file), pathPart);
  if (joined === '..' || joined.startsWith('../')) return 'outside';
  return { path: joined.replace(/\/$/, '') || '.', fragment };
}

/** A line anchor of GitHub's file view (`#L10`, `#L10-L20`): the only fragment a link to a non-Markdown file may carry. */
export const isLineAnchor = (fragment: string) => /^L\d+(-L\d+)?$/.test(fragment);

/** Text that sends a reader into the `shared/` folder beside the repository, which a clone does not have. */
export const namesSharedFolder = (text: string) => /(^|[^\w-])\.\.\/shared\b|\bshared\/spec\//.test(text);

/**
 * The repository paths a text names: words that start with one of `topFolders` (e.g. `src/`, `docs/`) and are
 * not part of a longer path or URL. A path cut short by a placeholder (`functions/jobs/{step}.ts`,
 * `src/<capability>/`, `test/e2e/*.test.ts`) is returned up to the placeholder with `prefix: true`.
 */
export function citedPaths(text: string, topFolders: readonly string[]): { path: string; prefix: boolean }[] {
  if (topFolders.length === 0) return [];
  const folders = topFolders.map((folder) => folder.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  const pattern = new RegExp(`(?<![\\w./:@-])((?:${folders})/[\\w.\\-/]*)([{<*…[]?)`, 'g');
  return [...text.matchAll(pattern)].map((m) => {
    const placeholder = m[2] !== '';
    // A sentence may end right after a path: "in src/errors.ts." or "(docs/stats.md)".
    const path = placeholder ? m[1]! : m[1]!.replace(/[.,:;]+$/, '');
    return { path, prefix: placeholder };
  });
}

/**
 * The tables of the section under the heading whose text is `heading` (up to the next heading of the same or a
 * higher level), each as rows of cell texts without their Markdown (backticks and emphasis gone), header row
 * first. Empty when there is no such heading.
 */
export function sectionTables(source: string, heading: string): string[][][] {
  const tree = fromMarkdown(source, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  const tables: string[][][] = [];
  let depth: number | undefined;
  for (const node of tree.children) {
    if (node.type === 'heading') {
      if (depth !== undefined && node.depth <= depth) break;
      if (depth === undefined && toString(node) === heading) depth = node.depth;
    } else if (depth !== undefined && node.type === 'table') {
      tables.push(node.children.map((row) => row.children.map((cell) => toString(cell).trim())));
    }
  }
  return tables;
}
