import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../../helpers/test-app';
import { seedTools } from '../../helpers/live-tools';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let ipCounter = 0;
const ip = () => ({ 'cf-connecting-ip': `10.13.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}` });
const admin = (
  path: string,
  init: { method?: string; json?: unknown; body?: string; headers?: Record<string, string> } = {},
) => t.request(path, { ...init, key: ADMIN_TOKEN, headers: { ...ip(), ...init.headers } });
const publicList = async () => {
  const res = await t.request('/api/v1/categories', { headers: ip() });
  expect(res.status).toBe(200);
  return (await res.json()) as {
    categories: Array<{ slug: string; name: string; description: string | null; tool_count: number }>;
  };
};
const unique = (base = 'cat') => `${base}-${crypto.randomUUID().slice(0, 8)}`;

const STARTER = [
  'writing',
  'image',
  'video',
  'audio',
  'code',
  'chat',
  'productivity',
  'marketing',
  'research',
  'data',
  'design',
  'education',
];

describe('a fresh database', () => {
  it('starts with the starter set of AI tool categories, each with no tools, sorted by name', async () => {
    const fresh = await createTestApp();
    try {
      const res = await fresh.request('/api/v1/categories', { headers: { 'cf-connecting-ip': '10.13.200.1' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBe('60');
      const { categories } = (await res.json()) as {
        categories: Array<{ slug: string; name: string; description: string; tool_count: number }>;
      };
      expect(categories.map((c) => c.slug).sort()).toEqual([...STARTER].sort());
      expect(categories.map((c) => c.name)).toEqual(
        [...categories.map((c) => c.name)].sort((a, b) => a.localeCompare(b)),
      );
      for (const c of categories) {
        expect(c).toEqual({ slug: c.slug, name: expect.any(String), description: expect.any(String), tool_count: 0 });
        expect(c.name.toLowerCase()).toBe(c.slug);
      }
    } finally {
      await fresh.close();
    }
  });
});

describe('operator API for categories', () => {
  it('creates (201), renames and re-describes (200), and deletes (204) a category; the public list follows', async () => {
    const slug = unique('video-editing');
    const created = await admin('/api/v1/admin/categories', {
      method: 'POST',
      json: { slug, name: '  Video editing ', description: 'Cutting clips.' },
    });
    expect(created.status).toBe(201);
    expect(await created.json()).toEqual({ slug, name: 'Video editing', description: 'Cutting clips.' });
    expect((await publicList()).categories).toContainEqual({
      slug,
      name: 'Video editing',
      description: 'Cutting clips.',
      tool_count: 0,
    });

    const renamed = await admin(`/api/v1/admin/categories/${slug}`, {
      method: 'PATCH',
      json: { name: 'Video cutting' },
    });
    expect(renamed.status).toBe(200);
    expect(await renamed.json()).toEqual({ slug, name: 'Video cutting', description: 'Cutting clips.' });
    const cleared = await admin(`/api/v1/admin/categories/${slug}`, { method: 'PATCH', json: { description: null } });
    expect(await cleared.json()).toEqual({ slug, name: 'Video cutting', description: null });
    const described = await admin(`/api/v1/admin/categories/${slug}`, {
      method: 'PATCH',
      json: { description: 'Trims.' },
    });
    expect(await described.json()).toEqual({ slug, name: 'Video cutting', description: 'Trims.' });
    expect((await publicList()).categories).toContainEqual({
      slug,
      name: 'Video cutting',
      description: 'Trims.',
      tool_count: 0,
    });

    expect((await admin(`/api/v1/admin/categories/${slug}`, { method: 'DELETE' })).status).toBe(204);
    expect((await publicList()).categories.find((c) => c.slug === slug)).toBeUndefined();
    expect((await admin(`/api/v1/admin/categories/${slug}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('operators may change and delete the starter categories too', async () => {
    const res = await admin('/api/v1/admin/categories/education', { method: 'PATCH', json: { name: 'Learning' } });
    expect(res.status).toBe(200);
    expect((await res.json()).name).toBe('Learning');
    expect((await admin('/api/v1/admin/categories/education', { method: 'DELETE' })).status).toBe(204);
    expect((await publicList()).categories.map((c) => c.slug)).not.toContain('education');
  });

  it('refuses a taken slug with 409 and changes nothing', async () => {
    const res = await admin('/api/v1/admin/categories', { method: 'POST', json: { slug: 'writing', name: 'Other' } });
    expect(res.status).toBe(409);
    expect((await res.json()).error.code).toBe('conflict');
    expect((await publicList()).categories.find((c) => c.slug === 'writing')?.name).toBe('Writing');
  });

  it('answers 404 for unknown and malformed slugs on PATCH and DELETE', async () => {
    for (const slug of [unique('nope'), 'UPPER', 'a%20b', 'x'.repeat(41), '-lead', 'a--b', '%E2%80%8B', '%00']) {
      for (const method of ['PATCH', 'DELETE']) {
        const res = await admin(`/api/v1/admin/categories/${slug}`, {
          method,
          json: method === 'PATCH' ? { name: 'X' } : undefined,
        });
        expect(res.status, `${method} ${slug}`).toBe(404);
        expect((await res.json()).error.code).toBe('not_found');
      }
    }
  });

  it('answers 400 naming the field for bad slugs, names and descriptions, and creates nothing', async () => {
    const before = await publicList();
    const cases: Array<[unknown, string]> = [
      [{ name: 'No slug' }, 'slug'],
      [{ slug: 'Caps', name: 'X' }, 'slug'],
      [{ slug: 'with space', name: 'X' }, 'slug'],
      [{ slug: 'trailing-', name: 'X' }, 'slug'],
      [{ slug: 'x'.repeat(41), name: 'X' }, 'slug'],
      [{ slug: 'émoji', name: 'X' }, 'slug'],
      [{ slug: 12, name: 'X' }, 'slug'],
      [{ slug: unique() }, 'name'],
      [{ slug: unique(), name: '   ' }, 'name'],
      [{ slug: unique(), name: 'x'.repeat(61) }, 'name'],
      [{ slug: unique(), name: 'bell\u0007' }, 'name'],
      [{ slug: unique(), name: '\ud800' }, 'name'],
      [{ slug: unique(), name: ['X'] }, 'name'],
      [{ slug: unique(), name: 'X', description: 'd'.repeat(301) }, 'description'],
      [{ slug: unique(), name: 'X', description: 'nul\u0000' }, 'description'],
      [{ slug: unique(), name: 'X', description: 5 }, 'description'],
    ];
    for (const [json, field] of cases) {
      const res = await admin('/api/v1/admin/categories', { method: 'POST', json });
      expect(res.status, JSON.stringify(json)).toBe(400);
      const body = await res.json();
      expect(body.error.code).toBe('invalid_request');
      expect(body.error.message).toContain(field);
    }
    for (const [json, field] of [
      [{}, 'name'],
      [{ name: '' }, 'name'],
      [{ description: 'd'.repeat(301) }, 'description'],
    ] as const) {
      const res = await admin('/api/v1/admin/categories/writing', { method: 'PATCH', json });
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect((await res.json()).error.message).toContain(field);
    }
    const notJson = await admin('/api/v1/admin/categories', {
      method: 'POST',
      body: '{',
      headers: { 'content-type': 'application/json' },
    });
    expect(notJson.status).toBe(400);
    expect(await publicList()).toEqual(before);
  });

  it('needs the operator token', async () => {
    const slug = unique();
    for (const key of [undefined, 'wrong-token']) {
      const res = await t.request('/api/v1/admin/categories', {
        method: 'POST',
        json: { slug, name: 'X' },
        key,
        headers: ip(),
      });
      expect(res.status).toBe(401);
      const del = await t.request('/api/v1/admin/categories/writing', { method: 'DELETE', key, headers: ip() });
      expect(del.status).toBe(401);
    }
    expect((await publicList()).categories.map((c) => c.slug)).toContain('writing');
  });

  it('refuses to delete a category while any tool is in it (409), and deletes it once none is', async () => {
    const slug = unique('used');
    await admin('/api/v1/admin/categories', { method: 'POST', json: { slug, name: 'Used' } });
    const [tool] = await seedTools(t.deps.db, [
      { name: unique('Rejected tool'), status: 'rejected', categories: [slug] },
    ]);
    const res = await admin(`/api/v1/admin/categories/${slug}`, { method: 'DELETE' });
    expect(res.status).toBe(409);
    const body = await res.json();
    expect(body.error.code).toBe('conflict');
    expect(body.error.message).toContain('1 tool');
    expect((await publicList()).categories.map((c) => c.slug)).toContain(slug);

    await t.deps.db.execute(`DELETE FROM site_categories WHERE site_id = '${tool!.id}'`);
    expect((await admin(`/api/v1/admin/categories/${slug}`, { method: 'DELETE' })).status).toBe(204);
  });
});

describe('GET /api/v1/categories', () => {
  it('counts live tools only', async () => {
    const slug = unique('count');
    await admin('/api/v1/admin/categories', { method: 'POST', json: { slug, name: 'Counted' } });
    await seedTools(t.deps.db, [
      { name: unique('Live one'), categories: [slug, 'code'] },
      { name: unique('Live two'), categories: [slug] },
      { name: unique('In review'), status: 'pending_review', categories: [slug] },
      { name: unique('Queued'), status: 'queued', categories: [slug] },
      { name: unique('Taken down'), status: 'rejected', categories: [slug] },
      { name: unique('Elsewhere'), categories: ['chat'] },
    ]);
    const { categories } = await publicList();
    expect(categories.find((c) => c.slug === slug)).toEqual({
      slug,
      name: 'Counted',
      description: null,
      tool_count: 2,
    });
  });
});
