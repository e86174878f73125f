// /sitemap.xml past its URL limit (lowered here from 50,000): a sitemap index whose children are each valid,
// within the limit, together list every URL once, and keep their content when tools come and go (docs/seo.md).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { seedTools, type SeededTool } from '../../helpers/live-tools';
import { elementTexts, xsdErrors } from '../../helpers/sitemap-xsd';

const origin = 'http://tooldir.test';
const MAX = 4;
let t: TestApp;
let tools: SeededTool[];

beforeAll(async () => {
  t = await createTestApp({ app: { sitemap: { maxUrls: MAX } } });
  // Ten live tools published a minute apart, in two categories; and tools that are not public.
  const base = Date.parse('2030-01-01T00:00:00Z');
  tools = await seedTools(
    t.deps.db,
    Array.from({ length: 10 }, (_, i) => ({
      name: `Indexed ${i}`,
      publishedAt: new Date(base + i * 60_000),
      categories: [i % 2 ? 'code' : 'writing'],
    })),
  );
  await seedTools(t.deps.db, [{ name: 'Pending Indexed', status: 'pending_review', categories: ['image'] }]);
});
afterAll(() => t.close());

const pathOf = (loc: string) => {
  expect(loc.startsWith(`${origin}/`)).toBe(true);
  return loc.slice(origin.length);
};
const toolLoc = (tool: SeededTool) => `${origin}/tools/${tool.slug}`;

async function readIndex(): Promise<string[]> {
  const res = await t.request('/sitemap.xml');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/xml; charset=utf-8');
  const body = await res.text();
  expect(body).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
  expect(await xsdErrors(body, 'siteindex')).toEqual([]);
  expect(elementTexts(body, 'lastmod')).toHaveLength(elementTexts(body, 'loc').length);
  return elementTexts(body, 'loc');
}

async function readChild(loc: string): Promise<string[]> {
  const res = await t.request(pathOf(loc));
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/xml; charset=utf-8');
  expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
  const body = await res.text();
  expect(await xsdErrors(body, 'sitemap')).toEqual([]);
  const locs = elementTexts(body, 'loc');
  expect(locs.length).toBeGreaterThan(0);
  expect(locs.length).toBeLessThanOrEqual(MAX);
  expect(elementTexts(body, 'lastmod')).toHaveLength(locs.length);
  return locs;
}

describe('GET /sitemap.xml past the limit', () => {
  it('the schema check itself refuses a document that breaks the sitemaps.org schema', async () => {
    const bad =
      '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://tooldir.test/</loc><lastmod>yesterday</lastmod></url></urlset>';
    expect((await xsdErrors(bad, 'sitemap')).join('\n')).toMatch(/lastmod/);
    expect(
      await xsdErrors(bad.replace('urlset', 'sitemapindex').replace('urlset', 'sitemapindex'), 'siteindex'),
    ).not.toEqual([]);
  });

  it('is an index of a pages child and numbered tools children that together list every URL exactly once', async () => {
    const children = await readIndex();
    expect(children.map(pathOf).map((p) => p.replace(/\?.*/, ''))).toEqual([
      '/sitemaps/pages.xml',
      '/sitemaps/tools-1.xml',
      '/sitemaps/tools-2.xml',
      '/sitemaps/tools-3.xml',
    ]);
    const listed = (await Promise.all(children.map(readChild))).flat();
    const expected = [`${origin}/`, `${origin}/categories/code`, `${origin}/categories/writing`, ...tools.map(toolLoc)];
    expect([...listed].sort()).toEqual([...expected].sort());
    expect(new Set(listed).size).toBe(listed.length);
    // Tools in the order they were published, cut every MAX rows.
    expect(await readChild(children[1]!)).toEqual(tools.slice(0, 4).map(toolLoc));
    expect(await readChild(children[3]!)).toEqual(tools.slice(8).map(toolLoc));
  });

  it('keeps each child address meaning the same tools while tools are published and taken down (keys, not offsets)', async () => {
    const children = await readIndex();
    const before = await Promise.all(children.map(readChild));
    // Take down a tool of the first child and publish a new one.
    await queryRows(t.deps.db, sql`UPDATE sites SET status = 'rejected' WHERE id = ${tools[1]!.id}::uuid`);
    const [late] = await seedTools(t.deps.db, [
      { name: 'Indexed Late', publishedAt: new Date('2030-02-01T00:00:00Z') },
    ]);
    try {
      const after = await Promise.all(children.map(readChild));
      expect(after[1]).toEqual(before[1]!.filter((loc) => loc !== toolLoc(tools[1]!)));
      expect(after[2]).toEqual(before[2]); // an offset would have shifted the next tool into the first child
      expect(after[3]).toEqual([...before[3]!, toolLoc(late!)]);
      const fresh = (await Promise.all((await readIndex()).map(readChild))).flat();
      expect(new Set(fresh).size).toBe(fresh.length);
      expect(fresh).toContain(toolLoc(late!));
      expect(fresh).not.toContain(toolLoc(tools[1]!));
    } finally {
      await queryRows(t.deps.db, sql`UPDATE sites SET status = 'live' WHERE id = ${tools[1]!.id}::uuid`);
      await queryRows(t.deps.db, sql`UPDATE sites SET status = 'rejected' WHERE id = ${late!.id}::uuid`);
    }
  });

  it('writes the key bounds of a child escaped in the index (one & between them)', async () => {
    const res = await t.request('/sitemap.xml');
    const body = await res.text();
    expect(body).toMatch(
      /<loc>http:\/\/tooldir\.test\/sitemaps\/tools-2\.xml\?from=\d+_[0-9a-f-]{36}&amp;to=\d+_[0-9a-f-]{36}<\/loc>/,
    );
  });

  it('answers 404 for a child no index names', async () => {
    const children = await readIndex();
    const last = new URL(children[children.length - 1]!);
    const farFuture = `${Date.parse('2100-01-01T00:00:00Z')}000_${crypto.randomUUID()}`;
    const from = last.searchParams.get('from')!;
    for (const path of [
      '/sitemaps/tools-9.xml', // another child must name where it starts
      '/sitemaps/tools-0.xml',
      '/sitemaps/tools-01.xml',
      `/sitemaps/tools-1.xml?from=${from}`, // the first child starts at the beginning
      `/sitemaps/tools-4.xml?from=${farFuture}`, // past the last tool
      `/sitemaps/tools-2.xml?from=${from}&to=${from}`, // an empty range
      `/sitemaps/tools-2.xml?from=1_not-a-uuid`,
      `/sitemaps/tools-2.xml?from=99999999999999999_${crypto.randomUUID()}`, // out of the timestamp range
      `/sitemaps/tools-2.xml?from=${encodeURIComponent(`${from}' OR 1=1 --`)}`,
      '/sitemaps/tools-1.json',
      '/sitemaps/other.xml',
      '/sitemaps/',
    ]) {
      const res = await t.request(path);
      expect(res.status, path).toBe(404);
      if (path !== '/sitemaps/') expect((await res.json()).error.code, path).toBe('not_found');
    }
  });
});
