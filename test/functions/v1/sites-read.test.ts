import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, uniqueUrl, uniqueName } from '../../helpers/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const submit = (key: string, json: unknown) => t.request('/api/v1/submit-site', { method: 'POST', key, json });
const DB_STYLE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\+00$/;

describe('GET /api/v1/sites/{site_id}', () => {
  it('returns the site record of a queued submission', async () => {
    const m = await t.member('member');
    const url = uniqueUrl();
    const name = uniqueName();
    const { site_id } = await (await submit(m.key, { name, url })).json();
    const res = await t.request(`/api/v1/sites/${site_id}`, { key: m.key });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      site_id,
      name,
      url: `${url}/`, // as the URL parser reads it (new URL(url).href)
      status: 'queued',
      is_feature: false,
      is_sponsor: false,
      submitted_at: expect.stringMatching(DB_STYLE),
      // The detail read's own fields (docs/submission-progress.md): the existing ones above keep their shapes.
      history: [{ status: 'queued', at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) }],
      queue: expect.objectContaining({ stage: 'crawl', position: expect.any(Number) }),
    });
  });

  it('returns live_url only when live', async () => {
    const m = await t.member('member');
    const { site_id } = await (await submit(m.key, { name: uniqueName(), url: uniqueUrl() })).json();
    await t.deps.db.execute(
      sql`UPDATE sites SET status = 'live', live_url = 'http://tooldir.test/tools/x' WHERE id = ${site_id}`,
    );
    expect((await (await t.request(`/api/v1/sites/${site_id}`, { key: m.key })).json()).live_url).toBe(
      'http://tooldir.test/tools/x',
    );
    await t.deps.db.execute(sql`UPDATE sites SET status = 'rejected' WHERE id = ${site_id}`);
    expect(await (await t.request(`/api/v1/sites/${site_id}`, { key: m.key })).json()).not.toHaveProperty('live_url');
  });

  it('returns the pending-payment record with its checkout_url for an unpaid submission', async () => {
    const m = await t.member('none');
    const pending = await (await submit(m.key, { name: uniqueName(), url: uniqueUrl() })).json();
    const res = await t.request(`/api/v1/sites/${pending.site_id}`, { key: m.key });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(pending);
  });

  it('an expired link is still readable, with expires_at in the past', async () => {
    const m = await t.member('none');
    const pending = await (await submit(m.key, { name: uniqueName(), url: uniqueUrl() })).json();
    await t.deps.db.execute(
      sql`UPDATE pending_submissions SET expires_at = now() - interval '1 day', state = 'expired' WHERE id = ${pending.site_id}`,
    );
    const body = await (await t.request(`/api/v1/sites/${pending.site_id}`, { key: m.key })).json();
    expect(body.status).toBe('pending_payment');
    expect(Date.parse(body.expires_at)).toBeLessThan(Date.now());
  });

  it("another caller's submission, an unknown id and a malformed id are all 404 not_found", async () => {
    const owner = await t.member('member');
    const other = await t.member('member');
    const { site_id } = await (await submit(owner.key, { name: uniqueName(), url: uniqueUrl() })).json();
    for (const id of [site_id, crypto.randomUUID(), 'not-a-uuid', '1%27%20OR%201=1', `${site_id}x`]) {
      const res = await t.request(`/api/v1/sites/${id}`, { key: other.key });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
    }
  });
});

describe('GET /api/v1/sites', () => {
  it('lists newest first, excludes pending records, reports total/limit/offset', async () => {
    const m = await t.member('member');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await (await submit(m.key, { name: uniqueName(), url: uniqueUrl() })).json()).site_id);
    const res = await t.request('/api/v1/sites', { key: m.key });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.total).toBe(3);
    expect(body.limit).toBe(100);
    expect(body.offset).toBe(0);
    expect(body.sites.map((s: { site_id: string }) => s.site_id)).toEqual([...ids].reverse());
    expect(body.sites[0]).toEqual({
      site_id: ids[2],
      name: expect.any(String),
      url: expect.any(String),
      status: 'queued',
      is_feature: false,
      is_sponsor: false,
      submitted_at: expect.stringMatching(DB_STYLE),
    });
  });

  it('does not list unpaid pending submissions', async () => {
    const m = await t.member('none');
    await submit(m.key, { name: uniqueName(), url: uniqueUrl() });
    expect(await (await t.request('/api/v1/sites', { key: m.key })).json()).toEqual({
      sites: [],
      total: 0,
      limit: 100,
      offset: 0,
    });
  });

  it('pages with limit and offset, without gaps or duplicates, and reports total past the end', async () => {
    const m = await t.member('memberFeature');
    for (let i = 0; i < 5; i++) await submit(m.key, { name: uniqueName(), url: uniqueUrl() });
    const seen: string[] = [];
    for (let offset = 0; offset < 5; offset += 2) {
      const page = await (await t.request(`/api/v1/sites?limit=2&offset=${offset}`, { key: m.key })).json();
      expect(page).toMatchObject({ total: 5, limit: 2, offset });
      seen.push(...page.sites.map((s: { site_id: string }) => s.site_id));
    }
    expect(new Set(seen).size).toBe(5);
    expect(await (await t.request('/api/v1/sites?offset=50', { key: m.key })).json()).toEqual({
      sites: [],
      total: 5,
      limit: 100,
      offset: 50,
    });
  });

  it('filters by canonical URL', async () => {
    const m = await t.member('member');
    const url = uniqueUrl();
    const { site_id } = await (await submit(m.key, { name: uniqueName(), url })).json();
    await submit(m.key, { name: uniqueName(), url: uniqueUrl() });
    const res = await t.request(
      `/api/v1/sites?url=${encodeURIComponent(url.replace('https://', 'https://WWW.') + '/?utm_source=cli')}`,
      { key: m.key },
    );
    const body = await res.json();
    expect(body.total).toBe(1);
    expect(body.sites[0].site_id).toBe(site_id);
  });

  it('only ever lists the caller’s own submissions', async () => {
    const a = await t.member('member');
    const b = await t.member('member');
    await submit(a.key, { name: uniqueName(), url: uniqueUrl() });
    expect((await (await t.request('/api/v1/sites', { key: b.key })).json()).total).toBe(0);
  });

  it.each([
    'limit=0',
    'limit=101',
    'limit=-1',
    'limit=abc',
    'limit=1.5',
    'limit=',
    'offset=-1',
    'offset=x',
    'offset=1e3',
    'url=ftp://x.example',
    'limit=1&limit=2',
  ])('%s -> 400 invalid_request naming the parameter', async (query) => {
    const m = await t.member('member');
    const res = await t.request(`/api/v1/sites?${query}`, { key: m.key });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error.code).toBe('invalid_request');
    expect(body.error.message).toMatch(query.split('=')[0]!);
  });
});
