// Categories on real PostgreSQL through the production driver (drizzle neon-http against the Neon SQL-over-HTTP
// stand-in): the migrated starter set, the category-filtered search (one statement per page, with and without
// a query, paged by cursor), tool reads whose categories arrive as JSON text, and the 409 of a used category.
import { expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/client';
import { findPostgresBinaries } from '../helpers/services/postgres';
import { requireService } from '../helpers/services/require-service';
import { useNeonTestApp } from '../helpers/standins/neon-database';
import { ADMIN_TOKEN } from '../helpers/test-app';
import { seedTools } from '../helpers/live-tools';

const describePg = requireService('PostgreSQL', findPostgresBinaries() !== null);

let ipCounter = 0;
const ip = () => ({ 'cf-connecting-ip': `10.16.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}` });
type Page = {
  tools: Array<{ slug: string; categories: Array<{ slug: string; name: string }> }>;
  next_cursor: string | null;
};

describePg('categories on PostgreSQL through drizzle neon-http', () => {
  const app = useNeonTestApp();

  const get = async (path: string) => {
    const res = await app.t.request(path, { headers: ip() });
    expect(res.status, path).toBe(200);
    return res.json();
  };
  async function allPages(params: Record<string, string>): Promise<string[]> {
    const slugs: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Page = await get(`/api/v1/tools?${new URLSearchParams({ ...params, ...(cursor && { cursor }) })}`);
      slugs.push(...page.tools.map((tool) => tool.slug));
      cursor = page.next_cursor;
    } while (cursor);
    return slugs;
  }

  it('the migrated database has the starter set', async () => {
    const { categories } = (await get('/api/v1/categories')) as {
      categories: Array<{ slug: string; tool_count: number }>;
    };
    expect(categories.map((c) => c.slug).sort()).toEqual([
      'audio',
      'chat',
      'code',
      'data',
      'design',
      'education',
      'image',
      'marketing',
      'productivity',
      'research',
      'video',
      'writing',
    ]);
  });

  it('filters search by category with and without a query, pages inside it, and counts live tools only', async () => {
    const base = Date.now() - 60_000;
    const inside = await seedTools(app.t.deps.db, [
      ...Array.from({ length: 5 }, (_, i) => ({
        name: `Neoncat Tool ${i}`,
        description: 'Edits photos.',
        categories: ['image', 'design'],
        publishedAt: new Date(base + i * 1000),
      })),
    ]);
    await seedTools(app.t.deps.db, [
      { name: 'Neoncat Outside', description: 'Edits photos.', categories: ['video'] },
      { name: 'Neoncat Draft', status: 'pending_review', categories: ['image'] },
    ]);
    const newest = inside.map((tool) => tool.slug).reverse();
    expect(await allPages({ category: 'image', limit: '2' })).toEqual(newest);
    const searched = await allPages({ category: 'image', q: 'neoncat photos', limit: '2' });
    expect([...searched].sort()).toEqual([...newest].sort());
    expect(await allPages({ category: 'image', q: 'neoncat tol', limit: '2' })).toHaveLength(5);
    expect(await allPages({ category: 'image', q: 'neoncatt', limit: '3' })).toHaveLength(5);

    const detail = (await get(`/api/v1/tools/${inside[0]!.slug}`)) as { categories: unknown };
    expect(detail.categories).toEqual([
      { slug: 'design', name: 'Design' },
      { slug: 'image', name: 'Image' },
    ]);
    const { categories } = (await get('/api/v1/categories')) as {
      categories: Array<{ slug: string; tool_count: number }>;
    };
    expect(categories.find((c) => c.slug === 'image')?.tool_count).toBe(5);

    const unknown = await app.t.request('/api/v1/tools?category=no-such-thing', { headers: ip() });
    expect(unknown.status).toBe(400);
  });

  it('submit stores categories; a used category cannot be deleted (409), an unused one can', async () => {
    const { key } = await app.t.member('member');
    const res = await app.t.request('/api/v1/submit-site', {
      method: 'POST',
      key,
      json: {
        name: `Neon Categorised ${Date.now()}`,
        url: `https://neon-categorised-${Date.now()}.example/`,
        categories: ['education', 'research'],
      },
    });
    expect(res.status).toBe(201);
    const admin = (method: string, path: string, json?: unknown) =>
      app.t.request(path, { method, key: ADMIN_TOKEN, json, headers: ip() });
    expect((await admin('DELETE', '/api/v1/admin/categories/education')).status).toBe(409);
    expect((await admin('POST', '/api/v1/admin/categories', { slug: 'neon-unused', name: 'Unused' })).status).toBe(201);
    expect((await admin('DELETE', '/api/v1/admin/categories/neon-unused')).status).toBe(204);
  });

  it('a paid submission keeps its categories through the local checkout (one promoting statement on PostgreSQL)', async () => {
    const { key } = await app.t.member('none');
    const res = await app.t.request('/api/v1/submit-site', {
      method: 'POST',
      key,
      json: {
        name: `Neon Paid ${Date.now()}`,
        url: `https://neon-paid-${Date.now()}.example/`,
        categories: ['marketing', 'data'],
      },
    });
    expect(res.status).toBe(402);
    const record = (await res.json()) as { site_id: string; checkout_url: string };
    const path = new URL(record.checkout_url).pathname;
    const page = await (await app.t.request(path)).text();
    const token = /name="_csrf" value="([0-9a-f]{64})"/.exec(page)![1]!;
    const paid = await app.t.request(`${path}/pay`, {
      method: 'POST',
      body: new URLSearchParams({ _csrf: token }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://tooldir.test' },
    });
    expect(paid.status).toBe(303);
    const rows = await queryRows<{ slug: string }>(
      app.t.deps.db,
      sql`SELECT category_slug AS slug FROM site_categories WHERE site_id = ${record.site_id}::uuid ORDER BY 1`,
    );
    expect(rows.map((r) => r.slug)).toEqual(['data', 'marketing']);
  });

  it('deleting a category while submits put tools into it: never a 5xx, and no tool is left in a deleted category', async () => {
    for (let round = 0; round < 3; round++) {
      // A fresh account per round: the submit limit (10/min) and the daily quota stay out of the way.
      const { key } = await app.t.member('member');
      const slug = `raced-${round}-${Date.now()}`;
      expect(
        (
          await app.t.request('/api/v1/admin/categories', {
            method: 'POST',
            key: ADMIN_TOKEN,
            json: { slug, name: 'Raced' },
            headers: ip(),
          })
        ).status,
      ).toBe(201);
      const submits = Array.from({ length: 3 }, (_, i) =>
        app.t.request('/api/v1/submit-site', {
          method: 'POST',
          key,
          json: {
            name: `Raced ${round} ${i} ${Date.now()}`,
            url: `https://raced-${round}-${i}-${Date.now()}.example/`,
            categories: [slug],
          },
        }),
      );
      const del = app.t.request(`/api/v1/admin/categories/${slug}`, {
        method: 'DELETE',
        key: ADMIN_TOKEN,
        headers: ip(),
      });
      const [deleted, ...submitted] = await Promise.all([del, ...submits]);
      expect([204, 409]).toContain(deleted.status);
      // A submit either got in (201), was refused because the category was gone (400 unknown / 409 deleted just now).
      for (const res of submitted) expect([201, 400, 409]).toContain(res.status);
      const { categories } = (await get('/api/v1/categories')) as { categories: Array<{ slug: string }> };
      expect(categories.some((c) => c.slug === slug)).toBe(deleted.status === 409);
    }
  });
});
