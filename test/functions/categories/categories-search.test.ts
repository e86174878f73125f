import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../../helpers/test-app';
import { seedTools } from '../../helpers/live-tools';
import { callTool, connectMcp, resultJson } from '../mcp/mcp-client';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let ipCounter = 0;
const ip = () => `10.15.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;
type Page = {
  tools: Array<{ slug: string; name: string; categories: Array<{ slug: string; name: string }> }>;
  next_cursor: string | null;
};
const search = async (params: Record<string, string>) => {
  const res = await t.request(`/api/v1/tools?${new URLSearchParams(params)}`, {
    headers: { 'cf-connecting-ip': ip() },
  });
  return res;
};
const page = async (params: Record<string, string>) => {
  const res = await search(params);
  expect(res.status, JSON.stringify(params)).toBe(200);
  return (await res.json()) as Page;
};
/** Every page of a search, following next_cursor. */
async function allPages(params: Record<string, string>): Promise<string[]> {
  const slugs: string[] = [];
  let cursor: string | null = null;
  do {
    const p: Page = await page({ ...params, ...(cursor && { cursor }) });
    slugs.push(...p.tools.map((tool) => tool.slug));
    cursor = p.next_cursor;
  } while (cursor);
  return slugs;
}
async function newCategory(name: string): Promise<string> {
  const slug = `${name.toLowerCase()}-${crypto.randomUUID().slice(0, 6)}`;
  const res = await t.request('/api/v1/admin/categories', {
    method: 'POST',
    key: ADMIN_TOKEN,
    json: { slug, name },
    headers: { 'cf-connecting-ip': ip() },
  });
  expect(res.status).toBe(201);
  return slug;
}

describe('GET /api/v1/tools?category=', () => {
  it('an empty query lists the category’s live tools, newest first, paged by cursor without duplicates or gaps', async () => {
    const cat = await newCategory('Pagers');
    const other = await newCategory('Others');
    const base = Date.now() - 100_000;
    const inside = await seedTools(
      t.deps.db,
      Array.from({ length: 7 }, (_, i) => ({
        name: `Catpage ${i}`,
        categories: [cat],
        publishedAt: new Date(base + i * 1000),
      })),
    );
    await seedTools(t.deps.db, [
      { name: 'Catpage Outside', categories: [other], publishedAt: new Date(base + 50_000) },
      { name: 'Catpage Draft', status: 'pending_review', categories: [cat] },
      { name: 'Catpage Down', status: 'rejected', categories: [cat] },
    ]);
    const expected = inside.map((tool) => tool.slug).reverse();
    expect(await allPages({ category: cat, limit: '3' })).toEqual(expected);
    expect(await allPages({ category: cat, q: '', limit: '2' })).toEqual(expected);

    // Tools that go live in the category between page reads never make a page repeat or skip a row.
    const first = await page({ category: cat, limit: '3' });
    await seedTools(t.deps.db, [{ name: 'Catpage Newcomer', categories: [cat] }]);
    const rest = await allPages({ category: cat, limit: '3', cursor: first.next_cursor! });
    expect([...first.tools.map((tool) => tool.slug), ...rest]).toEqual(expected);
  });

  it('filters a text search by category, keeping relevance order, and pages inside it', async () => {
    const cat = await newCategory('Filtered');
    const seeded = await seedTools(t.deps.db, [
      { name: 'Quillmatic', description: 'Writes letters.', categories: [cat, 'writing'] },
      { name: 'Letter Helper', description: 'Like quillmatic for letters.', categories: [cat] },
      { name: 'Quillmatic Outside', description: 'Quillmatic, elsewhere.', categories: ['writing'] },
      { name: 'Quillmatic Loose', description: 'No category at all.' },
      ...Array.from({ length: 4 }, (_, i) => ({ name: `Quillmatic Extra ${i}`, categories: [cat] })),
    ]);
    const filtered = await page({ q: 'quillmatic', category: cat, limit: '50' });
    expect(filtered.tools[0]).toMatchObject({
      slug: seeded[0]!.slug,
      categories: [
        { slug: cat, name: 'Filtered' },
        { slug: 'writing', name: 'Writing' },
      ],
    });
    const expectedSet = [seeded[0], seeded[1], ...seeded.slice(4)].map((tool) => tool!.slug);
    expect(filtered.tools.map((tool) => tool.slug).sort()).toEqual([...expectedSet].sort());
    expect(await allPages({ q: 'quillmatic', category: cat, limit: '2' })).toEqual(
      filtered.tools.map((tool) => tool.slug),
    );
    // The unfiltered search still finds the others.
    const all = (await page({ q: 'quillmatic', limit: '50' })).tools.map((tool) => tool.slug);
    expect(all).toEqual(expect.arrayContaining([seeded[2]!.slug, seeded[3]!.slug]));
  });

  it('filters the typo fallback by category too', async () => {
    const cat = await newCategory('Typos');
    const [inside] = await seedTools(t.deps.db, [
      { name: 'Zorblatter', categories: [cat] },
      { name: 'Zorblatter Twin', categories: ['chat'] },
    ]);
    const res = await page({ q: 'zorblater', category: cat });
    expect(res.tools.map((tool) => tool.slug)).toEqual([inside!.slug]);
  });

  it('returns an empty page for a known category without matching tools, and 400 for an unknown or malformed one', async () => {
    const empty = await newCategory('Empty');
    expect(await page({ category: empty })).toEqual({ tools: [], next_cursor: null });
    expect(await page({ category: empty, q: 'anything' })).toEqual({ tools: [], next_cursor: null });
    for (const category of ['no-such-category', 'UPPER', 'a b', 'x'.repeat(41), '\u0000', '']) {
      const res = await search({ category, q: 'tool' });
      expect(res.status, category).toBe(400);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('invalid_request');
      expect(body.error.message).toContain('category');
    }
  });

  it('refuses a cursor from another category or from the unfiltered list', async () => {
    const a = await newCategory('Cursora');
    const b = await newCategory('Cursorb');
    await seedTools(
      t.deps.db,
      Array.from({ length: 3 }, (_, i) => ({ name: `Cursortool ${i}`, categories: [a, b] })),
    );
    const first = await page({ category: a, limit: '1' });
    for (const params of [{ category: b }, {}, { q: 'cursortool', category: a }] as Array<Record<string, string>>) {
      const res = await search({ ...params, limit: '1', cursor: first.next_cursor! });
      expect(res.status, JSON.stringify(params)).toBe(400);
      expect(((await res.json()) as { error: { message: string } }).error.message).toContain('cursor');
    }
  });
});

describe('MCP list_categories and search_tools with category', () => {
  it('lists categories with live counts and searches inside one, with and without a query', async () => {
    const cat = await newCategory('Mcpcat');
    const [one, two] = await seedTools(t.deps.db, [
      { name: 'Mcpcat Alpha', description: 'First.', categories: [cat] },
      { name: 'Mcpcat Beta', description: 'Second.', categories: [cat, 'audio'] },
      { name: 'Mcpcat Hidden', status: 'pending_review', categories: [cat] },
    ]);
    const client = await connectMcp(t, { ip: ip() });
    try {
      const { tools } = await client.listTools();
      const listTool = tools.find((tool) => tool.name === 'list_categories');
      expect(listTool?.annotations).toMatchObject({ readOnlyHint: true });

      const listed = await callTool(client, 'list_categories', {});
      expect(listed.isError).toBeFalsy();
      const { categories } = listed.structuredContent as { categories: Array<{ slug: string; tool_count: number }> };
      expect(categories.find((c) => c.slug === cat)).toEqual({
        slug: cat,
        name: 'Mcpcat',
        description: null,
        tool_count: 2,
      });
      expect(categories.map((c) => c.slug)).toEqual(expect.arrayContaining(['writing', 'image', 'code']));
      expect(resultJson(listed)).toEqual(listed.structuredContent);

      const browse = await callTool(client, 'search_tools', { category: cat });
      expect(browse.isError).toBeFalsy();
      expect((browse.structuredContent as Page).tools.map((tool) => tool.slug)).toEqual([two!.slug, one!.slug]);
      expect((browse.structuredContent as Page).tools[0]!.categories).toEqual([
        { slug: 'audio', name: 'Audio' },
        { slug: cat, name: 'Mcpcat' },
      ]);

      const searched = await callTool(client, 'search_tools', { query: 'alpha', category: cat });
      expect((searched.structuredContent as Page).tools.map((tool) => tool.slug)).toEqual([one!.slug]);

      const unknown = await callTool(client, 'search_tools', { query: 'alpha', category: 'no-such-cat' });
      expect(unknown.isError).toBe(true);
      expect(resultJson(unknown)).toEqual({
        error: { code: 'invalid_request', message: expect.stringContaining('"no-such-cat"') },
      });
      const malformed = await callTool(client, 'search_tools', { category: 'Bad Slug' });
      expect(malformed.isError).toBe(true);
    } finally {
      await client.close();
    }
  });
});
