// Editors set or change a tool's categories when reviewing: in the REST review body and on /admin.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client';
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../../helpers/test-app';

let t: TestApp;
let accountId: string;
beforeAll(async () => {
  t = await createTestApp({ env: { AUTO_APPROVE: 'false' } });
  accountId = (await t.member('member')).accountId;
});
afterAll(() => t.close());

let ipCounter = 0;
const ip = () => ({ 'cf-connecting-ip': `10.17.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}` });

/** A site waiting for review, as the crawl step leaves it, in the submitter's categories. */
async function pendingSite(name: string, categories: string[] = []) {
  const id = crypto.randomUUID();
  const url = `https://${id.slice(0, 8)}.example/`;
  const metadata = {
    title: name,
    description: 'Does things',
    image: null,
    icon: null,
    canonical: null,
    finalUrl: url,
    finalCanonical: url,
    language: 'en',
  };
  await queryRows(
    t.deps.db,
    sql`WITH site AS (
          INSERT INTO sites (id, account_id, name, url, canonical_url, normalized_name, status, via, plan, metadata)
          VALUES (${id}::uuid, ${accountId}::uuid, ${name}, ${url}, ${url}, ${`${name.toLowerCase()} ${id}`}, 'pending_review', 'membership', 'basic',
            ${JSON.stringify(metadata)}::jsonb)
          RETURNING id
        )
        INSERT INTO site_categories (site_id, category_slug)
        SELECT site.id, slug FROM site CROSS JOIN jsonb_array_elements_text(${JSON.stringify(categories)}::jsonb) AS slug`,
  );
  return id;
}
const review = (id: string, json: unknown) =>
  t.request(`/api/v1/admin/sites/${id}/review`, { method: 'POST', key: ADMIN_TOKEN, json, headers: ip() });
async function state(id: string) {
  const [row] = await queryRows<{ status: string; slug: string | null }>(
    t.deps.db,
    sql`SELECT status, slug FROM sites WHERE id = ${id}::uuid`,
  );
  const cats = await queryRows<{ slug: string }>(
    t.deps.db,
    sql`SELECT category_slug AS slug FROM site_categories WHERE site_id = ${id}::uuid ORDER BY 1`,
  );
  return { status: row!.status, categories: cats.map((c) => c.slug) };
}
async function toolCategories(id: string) {
  const [row] = await queryRows<{ slug: string }>(t.deps.db, sql`SELECT slug FROM sites WHERE id = ${id}::uuid`);
  const res = await t.request(`/api/v1/tools/${row!.slug}`, { headers: ip() });
  expect(res.status).toBe(200);
  return ((await res.json()) as { categories: unknown }).categories;
}

describe('POST /api/v1/admin/sites/{site_id}/review with categories', () => {
  it('approve with categories replaces the submitter’s; the public tool read shows the editor’s choice', async () => {
    const id = await pendingSite('Recategorised Tool', ['chat', 'writing']);
    const res = await review(id, { decision: 'approve', categories: ['writing', 'research'] });
    expect(res.status).toBe(200);
    expect(await state(id)).toEqual({ status: 'live', categories: ['research', 'writing'] });
    expect(await toolCategories(id)).toEqual([
      { slug: 'research', name: 'Research' },
      { slug: 'writing', name: 'Writing' },
    ]);
  });

  it('keeps the submitter’s categories when the body has none, and [] removes them all', async () => {
    const kept = await pendingSite('Kept Categories', ['code']);
    expect((await review(kept, { decision: 'approve' })).status).toBe(200);
    expect(await state(kept)).toEqual({ status: 'live', categories: ['code'] });
    const cleared = await pendingSite('Cleared Categories', ['code', 'data']);
    expect((await review(cleared, { decision: 'approve', categories: [] })).status).toBe(200);
    expect(await state(cleared)).toEqual({ status: 'live', categories: [] });
    expect(await toolCategories(cleared)).toEqual([]);
  });

  it('a takedown may change them too', async () => {
    const id = await pendingSite('Taken Down Categories', ['image']);
    await review(id, { decision: 'approve' });
    expect((await review(id, { decision: 'reject', reason: 'Gone', categories: ['video'] })).status).toBe(200);
    expect(await state(id)).toEqual({ status: 'rejected', categories: ['video'] });
  });

  it('answers 400 for unknown (naming them), too many or duplicate categories, and changes neither status nor categories', async () => {
    const id = await pendingSite('Bad Category Review', ['audio']);
    for (const [categories, text] of [
      [['audio', 'made-up'], '"made-up"'],
      [['audio', 'code', 'chat', 'data'], 'at most 3'],
      [['code', 'code'], 'twice'],
      [['Not A Slug'], 'categories[]'],
      ['audio', 'categories'],
    ] as const) {
      const res = await review(id, { decision: 'approve', categories });
      expect(res.status, JSON.stringify(categories)).toBe(400);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('invalid_request');
      expect(body.error.message).toContain(text);
    }
    expect(await state(id)).toEqual({ status: 'pending_review', categories: ['audio'] });
  });

  it('a decision that does not apply (409) leaves the categories alone', async () => {
    const id = await pendingSite('Conflict Categories', ['design']);
    await review(id, { decision: 'approve' });
    const res = await review(id, { decision: 'approve', categories: ['marketing'] });
    expect(res.status).toBe(409);
    expect(await state(id)).toEqual({ status: 'live', categories: ['design'] });
    const unknownSite = await review(crypto.randomUUID(), { decision: 'approve', categories: ['marketing'] });
    expect(unknownSite.status).toBe(404);
  });
});

describe('/admin review form with categories', () => {
  async function signIn(): Promise<string> {
    const res = await t.request('/admin/login', {
      method: 'POST',
      body: new URLSearchParams({ token: ADMIN_TOKEN }),
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...ip() },
    });
    expect(res.status).toBe(303);
    return (res.headers.get('set-cookie') ?? '').split(';')[0]!;
  }
  const formPost = (path: string, cookie: string, fields: Record<string, string>) =>
    t.request(path, {
      method: 'POST',
      body: new URLSearchParams(fields),
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', ...ip() },
    });

  it('shows each tool’s categories prefilled and the known slugs, and sets what the editor typed', async () => {
    const id = await pendingSite('Admin Form Categories', ['education', 'chat']);
    const cookie = await signIn();
    const page = await (await t.request('/admin', { headers: { cookie, ...ip() } })).text();
    const form = page.slice(page.indexOf(`action="/admin/sites/${id}/review"`));
    expect(form).toMatch(/^[^]*?name="categories" value="chat, education"/);
    expect(page).toMatch(/Categories: .*writing/);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page)![1]!;

    const bad = await formPost(`/admin/sites/${id}/review`, cookie, {
      decision: 'approve',
      _csrf: csrf,
      categories: 'chat, no-such-one',
    });
    expect(bad.headers.get('location')).toBe('/admin?notice=categories');
    const many = await formPost(`/admin/sites/${id}/review`, cookie, {
      decision: 'approve',
      _csrf: csrf,
      categories: 'chat code data audio',
    });
    expect(many.headers.get('location')).toBe('/admin?notice=categories');
    expect(await state(id)).toEqual({ status: 'pending_review', categories: ['chat', 'education'] });
    expect(await (await t.request('/admin?notice=categories', { headers: { cookie, ...ip() } })).text()).toContain(
      'at most 3 distinct known category slugs',
    );

    const ok = await formPost(`/admin/sites/${id}/review`, cookie, {
      decision: 'approve',
      _csrf: csrf,
      categories: ' education,productivity ',
    });
    expect(ok.headers.get('location')).toBe('/admin?notice=published');
    expect(await state(id)).toEqual({ status: 'live', categories: ['education', 'productivity'] });
  });
});
