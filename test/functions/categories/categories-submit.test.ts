import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client';
import { ADMIN_TOKEN, createTestApp, type TestApp, uniqueName, uniqueUrl } from '../../helpers/test-app';
import { recordingQueue } from '../../helpers/stripe/payments-fixture';
import { callTool, connectMcp, resultJson } from '../mcp/mcp-client';

let t: TestApp;
beforeAll(async () => {
  // Local payments (no Stripe variables): the checkout link is this service's own page. The queue records
  // jobs instead of crawling, so a test moves a site to pending_review itself, as a crawl would.
  t = await createTestApp({ overrides: { queue: recordingQueue() } });
});
afterAll(() => t.close());

let ipCounter = 0;
const ip = () => `10.14.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;
const submit = (key: string, json: unknown, headers: Record<string, string> = {}) =>
  t.request('/api/v1/submit-site', { method: 'POST', key, json, headers });

async function siteCategories(siteId: string): Promise<string[]> {
  const rows = await queryRows<{ slug: string }>(
    t.deps.db,
    sql`SELECT category_slug AS slug FROM site_categories WHERE site_id = ${siteId}::uuid ORDER BY 1`,
  );
  return rows.map((r) => r.slug);
}
const countRows = async (table: 'sites' | 'pending_submissions', accountId: string) =>
  Number(
    (
      await queryRows<{ n: number }>(
        t.deps.db,
        sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} WHERE account_id = ${accountId}`,
      )
    )[0]!.n,
  );

/** What the crawl would do, then the editor's approval through the operator API; returns the public tool read. */
async function publish(siteId: string, review: Record<string, unknown> = {}) {
  await queryRows(
    t.deps.db,
    sql`UPDATE sites SET status = 'pending_review', metadata = '{"description": "Crawled."}'::jsonb WHERE id = ${siteId}::uuid RETURNING id`,
  );
  const res = await t.request(`/api/v1/admin/sites/${siteId}/review`, {
    method: 'POST',
    key: ADMIN_TOKEN,
    json: { decision: 'approve', ...review },
    headers: { 'cf-connecting-ip': ip() },
  });
  expect(res.status).toBe(200);
  const { live_url } = (await res.json()) as { live_url: string };
  const tool = await t.request(`/api/v1/tools/${live_url.split('/').pop()}`, { headers: { 'cf-connecting-ip': ip() } });
  expect(tool.status).toBe(200);
  return (await tool.json()) as { categories: Array<{ slug: string; name: string }> };
}

const tokenOf = (page: string) => /name="_csrf" value="([0-9a-f]{64})"/.exec(page)?.[1];

describe('submit with categories (REST)', () => {
  it('queues a member submission with its categories; once live, the tool read lists them by name', async () => {
    const m = await t.member('member');
    const res = await submit(m.key, { name: uniqueName(), url: uniqueUrl(), categories: ['writing', 'code'] });
    expect(res.status).toBe(201);
    const { site_id } = (await res.json()) as { site_id: string };
    expect(await siteCategories(site_id)).toEqual(['code', 'writing']);
    expect((await publish(site_id)).categories).toEqual([
      { slug: 'code', name: 'Code' },
      { slug: 'writing', name: 'Writing' },
    ]);
  });

  it('accepts no categories and an empty list', async () => {
    const m = await t.member('member');
    for (const json of [{}, { categories: [] }]) {
      const res = await submit(m.key, { name: uniqueName(), url: uniqueUrl(), ...json });
      expect(res.status).toBe(201);
      expect(await siteCategories(((await res.json()) as { site_id: string }).site_id)).toEqual([]);
    }
  });

  it('answers 400 for unknown (naming them), too many, duplicate or malformed categories, and writes nothing', async () => {
    for (const tier of ['member', 'none'] as const) {
      const m = await t.member(tier);
      const cases: Array<[unknown, string]> = [
        [['writing', 'no-such-category', 'also-missing'], '"no-such-category", "also-missing"'],
        [['writing', 'code', 'chat', 'data'], 'at most 3'],
        [['writing', 'writing'], 'twice'],
        [['Writing'], 'categories[]'],
        [['a b'], 'categories[]'],
        [[''], 'categories[]'],
        [[7], 'categories[]'],
        ['writing', 'categories'],
        [{ 0: 'writing' }, 'categories'],
        [null, 'categories'],
      ];
      for (const [categories, text] of cases) {
        const res = await submit(m.key, { name: uniqueName(), url: uniqueUrl(), categories });
        expect(res.status, JSON.stringify(categories)).toBe(400);
        const body = (await res.json()) as { error: { code: string; message: string } };
        expect(body.error.code).toBe('invalid_request');
        expect(body.error.message).toContain(text);
        // The field the error is about stays internal (details.field): the body keeps the contract's shape.
        expect(Object.keys(body.error)).toEqual(['code', 'message']);
      }
      expect(await countRows('sites', m.accountId)).toBe(0);
      expect(await countRows('pending_submissions', m.accountId)).toBe(0);
    }
  });

  it('makes categories part of the Idempotency-Key request: the same key with other categories is 422', async () => {
    const m = await t.member('member');
    const key = crypto.randomUUID();
    const body = { name: uniqueName(), url: uniqueUrl(), categories: ['chat'] };
    const first = await submit(m.key, body, { 'idempotency-key': key });
    expect(first.status).toBe(201);
    const again = await submit(m.key, body, { 'idempotency-key': key });
    expect(again.status).toBe(201);
    expect((await again.json()).site_id).toBe((await first.json()).site_id);
    const other = await submit(m.key, { ...body, categories: ['data'] }, { 'idempotency-key': key });
    expect(other.status).toBe(422);
    expect((await other.json()).error.code).toBe('idempotency_key_reused');
  });
});

describe('a paid submission keeps its categories through payment', () => {
  it('stores them on the pending record, replaces them on a re-submit, and moves them to the site when paid', async () => {
    const m = await t.member('none');
    const url = uniqueUrl();
    const name = uniqueName('Paid Categorised');
    const first = await submit(m.key, { name, url, categories: ['image'] });
    expect(first.status).toBe(402);
    // Re-submitting the unpaid URL replaces the record, categories included (same site_id, fresh link).
    const second = await submit(m.key, { name, url, categories: ['video', 'audio'] });
    expect(second.status).toBe(402);
    const record = (await second.json()) as { site_id: string; checkout_url: string };
    expect(record.site_id).toBe(((await first.json()) as { site_id: string }).site_id);
    expect(await siteCategories(record.site_id)).toEqual([]);

    const path = new URL(record.checkout_url).pathname;
    const page = await (await t.request(path)).text();
    const paid = await t.request(`${path}/pay`, {
      method: 'POST',
      body: new URLSearchParams({ _csrf: tokenOf(page)! }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://tooldir.test' },
    });
    expect(paid.status).toBe(303);
    expect(await siteCategories(record.site_id)).toEqual(['audio', 'video']);
    expect((await publish(record.site_id)).categories).toEqual([
      { slug: 'audio', name: 'Audio' },
      { slug: 'video', name: 'Video' },
    ]);
  });

  it('leaves out a category deleted while the record waited for payment', async () => {
    const slug = `short-lived-${crypto.randomUUID().slice(0, 6)}`;
    const headers = { 'cf-connecting-ip': ip() };
    expect(
      (
        await t.request('/api/v1/admin/categories', {
          method: 'POST',
          key: ADMIN_TOKEN,
          json: { slug, name: 'Short lived' },
          headers,
        })
      ).status,
    ).toBe(201);
    const m = await t.member('none');
    const res = await submit(m.key, { name: uniqueName(), url: uniqueUrl(), categories: [slug, 'design'] });
    expect(res.status).toBe(402);
    const record = (await res.json()) as { site_id: string; checkout_url: string };
    // Nothing but an unpaid record names it, so the operator may delete it.
    expect(
      (await t.request(`/api/v1/admin/categories/${slug}`, { method: 'DELETE', key: ADMIN_TOKEN, headers })).status,
    ).toBe(204);
    const path = new URL(record.checkout_url).pathname;
    const page = await (await t.request(path)).text();
    await t.request(`${path}/pay`, {
      method: 'POST',
      body: new URLSearchParams({ _csrf: tokenOf(page)! }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://tooldir.test' },
    });
    expect(await siteCategories(record.site_id)).toEqual(['design']);
  });
});

describe('MCP submit_site with categories', () => {
  it('queues with categories, and reports unknown or too many as invalid_request naming them', async () => {
    const m = await t.member('member');
    const client = await connectMcp(t, { key: m.key, ip: ip() });
    try {
      const ok = await callTool(client, 'submit_site', {
        name: uniqueName(),
        url: uniqueUrl(),
        categories: ['marketing'],
      });
      expect(ok.isError).toBeFalsy();
      expect(await siteCategories((ok.structuredContent as { site_id: string }).site_id)).toEqual(['marketing']);

      const unknown = await callTool(client, 'submit_site', {
        name: uniqueName(),
        url: uniqueUrl(),
        categories: ['nope-cat'],
      });
      expect(unknown.isError).toBe(true);
      expect(resultJson(unknown)).toEqual({
        error: { code: 'invalid_request', message: expect.stringContaining('"nope-cat"') },
      });

      const many = await callTool(client, 'submit_site', {
        name: uniqueName(),
        url: uniqueUrl(),
        categories: ['a', 'b', 'c', 'd'],
      });
      expect(many.isError).toBe(true);
      expect(resultJson(many)).toMatchObject({
        error: { code: 'invalid_request', message: expect.stringContaining('at most 3') },
      });
      expect(await countRows('sites', m.accountId)).toBe(1);
    } finally {
      await client.close();
    }
  });
});
