// /sitemap.xml in its one-file form: only live tools and the categories that have one, lastmod from the
// public record, XML escaping, and every answer valid against the sitemaps.org schema (docs/seo.md).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { seedTools, type SeededTool } from '../../helpers/live-tools';
import { elementTexts, xsdErrors } from '../../helpers/sitemap-xsd';

let t: TestApp;
const origin = 'http://tooldir.test';
let live: SeededTool[];
let hostile: SeededTool;
let edited: SeededTool;
const approvedAt = '2031-05-06T07:08:09.123Z';
const takenDownAt = '2032-01-02T03:04:05.678Z';

beforeAll(async () => {
  t = await createTestApp();
  await queryRows(
    t.deps.db,
    sql`INSERT INTO categories (slug, name) VALUES ('only-gone', 'Only gone'), ('a&b', 'Hostile <cat>')`,
  );
  live = await seedTools(t.deps.db, [
    { name: 'Writer One', categories: ['writing'] },
    { name: 'Coder One', categories: ['code', 'writing'] },
    { name: 'No Category' },
    { name: 'Hostile Category Tool', categories: ['a&b'] },
  ]);
  hostile = (await seedTools(t.deps.db, [{ name: 'Hostile Slug', slug: `x&y<z>"'` }]))[0]!;
  edited = (await seedTools(t.deps.db, [{ name: 'Edited Tool', categories: ['video'] }]))[0]!;
  await seedTools(t.deps.db, [
    { name: 'Pending Tool', status: 'pending_review', categories: ['image'] },
    { name: 'Rejected Tool', status: 'rejected', categories: ['image'] },
    { name: 'Queued Tool', status: 'queued' },
  ]);
  // Taken down: it was live (published_at and slug kept), then an editor rejected it.
  const [gone] = await seedTools(t.deps.db, [{ name: 'Taken Down', categories: ['only-gone', 'writing'] }]);
  await queryRows(t.deps.db, sql`UPDATE sites SET status = 'rejected' WHERE id = ${gone!.id}::uuid`);
  await queryRows(
    t.deps.db,
    sql`UPDATE sites SET status_changed_at = ${takenDownAt}::timestamptz WHERE id = ${gone!.id}::uuid`,
  );
  // An approved edit of the name or description changes the public page after it went live.
  const [account] = await queryRows<{ account_id: string }>(
    t.deps.db,
    sql`SELECT account_id FROM sites WHERE id = ${edited!.id}::uuid`,
  );
  await queryRows(
    t.deps.db,
    sql`INSERT INTO site_edits (id, site_id, account_id, description, status, decided_at, submitted_at)
        VALUES (${crypto.randomUUID()}::uuid, ${edited!.id}::uuid, ${account!.account_id}::uuid, 'new text', 'approved', ${approvedAt}::timestamptz, now()),
               (${crypto.randomUUID()}::uuid, ${edited!.id}::uuid, ${account!.account_id}::uuid, 'refused', 'rejected', '2040-01-01T00:00:00Z'::timestamptz, now())`,
  );
});
afterAll(() => t.close());

async function statusChangedAt(id: string): Promise<string> {
  const [row] = await queryRows<{ at: string }>(
    t.deps.db,
    sql`SELECT to_char(status_changed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at FROM sites WHERE id = ${id}::uuid`,
  );
  return row!.at;
}

describe('GET /sitemap.xml (one file)', () => {
  it('lists home, the categories with a live tool and every live tool, and nothing else', async () => {
    const res = await t.request('/sitemap.xml');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    const body = await res.text();
    expect(await xsdErrors(body, 'sitemap')).toEqual([]);
    const tools = [...live, hostile, edited].map((tool) => `${origin}/tools/${encodeURIComponent(tool.slug)}`);
    const categories = ['a%26b', 'code', 'video', 'writing'].map((slug) => `${origin}/categories/${slug}`);
    expect(elementTexts(body, 'loc').sort()).toEqual([`${origin}/`, ...categories, ...tools].sort());
  });

  it('escapes what a slug could smuggle in, so the document stays one valid urlset', async () => {
    const body = await (await t.request('/sitemap.xml')).text();
    expect(body).toContain(`<loc>${origin}/tools/x%26y%3Cz%3E%22&apos;</loc>`);
    expect(body).toContain(`<loc>${origin}/categories/a%26b</loc>`);
    expect(body.match(/<url>/g)).toHaveLength(elementTexts(body, 'loc').length);
    expect(body).not.toMatch(/[<&]["'<>]/);
  });

  it('gives each URL a lastmod: a tool its going live or its latest approved edit; lists and home their newest tool or takedown', async () => {
    const body = await (await t.request('/sitemap.xml')).text();
    const locs = elementTexts(body, 'loc');
    const lastmods = elementTexts(body, 'lastmod');
    expect(lastmods).toHaveLength(locs.length);
    for (const value of lastmods) expect(value).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const lastmodOf = (loc: string) => lastmods[locs.indexOf(loc)];
    const writer = live[0]!;
    expect(lastmodOf(`${origin}/tools/${writer.slug}`)).toBe(await statusChangedAt(writer.id));
    expect(lastmodOf(`${origin}/tools/${edited.slug}`)).toBe(approvedAt); // the rejected edit's later time does not count
    expect(lastmodOf(`${origin}/categories/video`)).toBe(approvedAt);
    expect(lastmodOf(`${origin}/categories/writing`)).toBe(takenDownAt); // the takedown changed that list
    expect(lastmodOf(`${origin}/categories/code`)).toBe(await statusChangedAt(live[1]!.id));
    expect(lastmodOf(`${origin}/`)).toBe(takenDownAt);
  });

  it('answers an empty directory with a valid sitemap of the home page alone', async () => {
    const empty = await createTestApp();
    try {
      const body = await (await empty.request('/sitemap.xml')).text();
      expect(await xsdErrors(body, 'sitemap')).toEqual([]);
      expect(elementTexts(body, 'loc')).toEqual([`${origin}/`]);
      expect(elementTexts(body, 'lastmod')).toEqual([]);
    } finally {
      await empty.close();
    }
  });
});

describe('GET /robots.txt', () => {
  it('allows the public pages, keeps crawlers out of accounts, editors, checkout, the API and agent endpoints, and names the sitemap', async () => {
    const res = await t.request('/robots.txt');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=UTF-8');
    expect(await res.text()).toBe(
      [
        'User-agent: *',
        'Allow: /',
        'Disallow: /account',
        'Disallow: /admin',
        'Disallow: /checkout',
        'Disallow: /api/',
        'Disallow: /oauth/',
        'Disallow: /mcp',
        'Disallow: /go/',
        'Disallow: /stats/',
        '',
        `Sitemap: ${origin}/sitemap.xml`,
        '',
      ].join('\n'),
    );
  });
});
