import type { SitemapEntry } from './sitemap-xml';
import type { SitemapRoot, ToolChunk } from './sitemap';
import { decodeListedKey, encodeListedKey, type ListedKey } from './sitemap-keys';

// The addresses of the child sitemaps in the index form (docs/seo.md): /sitemaps/pages.xml (home and
// categories), then /sitemaps/tools-{n}.xml?from=&to= in the listed order. The number is for people; the keys
// in the query decide the content, so an address handed out once keeps meaning the same range of tools.

/** The index's entries for the root's index form. */
export function sitemapIndexEntries(origin: string, root: Extract<SitemapRoot, { kind: 'index' }>): SitemapEntry[] {
  const tools = root.chunks.map((chunk: ToolChunk, i: number) => {
    const query = new URLSearchParams();
    if (i > 0) query.set('from', encodeListedKey(chunk.first));
    const next = root.chunks[i + 1];
    if (next) query.set('to', encodeListedKey(next.first));
    const search = query.toString() ? `?${query.toString()}` : '';
    return { loc: `${origin}/sitemaps/tools-${i + 1}.xml${search}`, lastmod: chunk.lastmod };
  });
  return [{ loc: `${origin}/sitemaps/pages.xml`, lastmod: root.home }, ...tools];
}

/** The bounds a tools child's address names, or undefined for an address no index hands out. */
export function toolsChildBounds(
  file: string,
  query: { from?: string; to?: string },
): { from?: ListedKey; to?: ListedKey } | undefined {
  const match = /^tools-([1-9]\d{0,8})\.xml$/.exec(file);
  if (!match) return undefined;
  const first = match[1] === '1';
  // The first child starts at the beginning; every other one at its own first key.
  if (first !== (query.from === undefined)) return undefined;
  const from = query.from === undefined ? undefined : decodeListedKey(query.from);
  const to = query.to === undefined ? undefined : decodeListedKey(query.to);
  if ((query.from !== undefined && !from) || (query.to !== undefined && !to)) return undefined;
  return { from, to };
}
