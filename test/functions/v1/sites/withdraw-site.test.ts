// Withdrawal by the owner (docs/pipeline.md "Withdrawal"): DELETE /api/v1/sites/{site_id} through app.request on
// PGlite: the record it answers, the 410 of every public address, every list it leaves, the states it refuses,
// repeats and races, statistics, the sponsorship, a new submission of the same URL, and the page cache.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../../src/db/client';
import { seedOwnedTool } from '../../../helpers/owned-tools';
import { ADMIN_TOKEN, createTestApp, uniqueName, type TestApp } from '../../../helpers/test-app';
import { recordingPayments } from '../../../helpers/stripe/payments-fixture';
import { callTool, connectMcp, resultJson } from '../../mcp/mcp-client';
import { loopbackOnlyWebhookTransport } from '../../../helpers/webhook-receiver';
import { canonicalUrl } from '../../../../src/submissions/url';

let t: TestApp;
const payments = recordingPayments();
// Webhook deliveries go nowhere but a checked stand-in address (the transport fails the test on anything else).
const webhooks = loopbackOnlyWebhookTransport({ 'hooks.example': ['93.184.215.14'] });
beforeAll(async () => {
  t = await createTestApp({ overrides: { payments, webhooks } });
});
afterAll(async () => {
  await t.close();
  expect(webhooks.violations).toEqual([]);
});

let address = 0;
/** Public reads each from their own address: the per-IP limit is tested elsewhere. */
const get = (path: string) => t.request(path, { headers: { 'cf-connecting-ip': `198.51.100.${++address % 250}` } });
const withdraw = (siteId: string, key: string) => t.request(`/api/v1/sites/${siteId}`, { method: 'DELETE', key });

/** A live tool of a fresh member, in the writing category, as the pipeline leaves it. */
async function liveTool(name = uniqueName('Withdrawn Quill')) {
  const member = await t.member('member');
  const tool = await seedOwnedTool(t.deps.db, member.accountId, { name, description: 'Writes things for you.' });
  await queryRows(
    t.deps.db,
    sql`INSERT INTO site_categories (site_id, category_slug) VALUES (${tool.id}::uuid, 'writing')`,
  );
  // The key a submit of the same address computes (the seed stores the URL as typed).
  await queryRows(
    t.deps.db,
    sql`UPDATE sites SET canonical_url = ${canonicalUrl(new URL(`https://${tool.slug}.example/`))} WHERE id = ${tool.id}::uuid`,
  );
  return { member, name, ...tool };
}

const statusOf = async (id: string) =>
  (
    await queryRows<{ status: string; withdrawn: boolean }>(
      t.deps.db,
      sql`SELECT status, withdrawn_at IS NOT NULL AS withdrawn FROM sites WHERE id = ${id}::uuid`,
    )
  )[0];

describe('DELETE /api/v1/sites/{site_id} on a live listing', () => {
  it('answers the record as rejected, withdrawn by its owner, with withdrawn_at and the history step', async () => {
    const tool = await liveTool();
    const res = await withdraw(tool.id, tool.member.key);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      site_id: tool.id,
      name: tool.name,
      status: 'rejected',
      rejection_reason: 'withdrawn by its owner',
    });
    expect(body.withdrawn_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(body.live_url).toBeUndefined();
    expect(body.history.at(-1)).toEqual({
      status: 'rejected',
      at: expect.any(String),
      reason: 'withdrawn by its owner',
    });
    // The detail read says the same afterwards.
    expect(await (await t.request(`/api/v1/sites/${tool.id}`, { key: tool.member.key })).json()).toEqual(body);
  });

  it('gives every public address of the tool a 410 and takes it out of every list', async () => {
    const tool = await liveTool(uniqueName('Vanishing Inkwell'));
    const word = tool.name.split(' ').at(-1)!;
    // Listed before: page, JSON, search, home search, category, sitemap, llms.txt.
    expect((await get(`/tools/${tool.slug}`)).status).toBe(200);
    expect(await (await get(`/api/v1/tools?q=${word}`)).json()).toMatchObject({ tools: [{ slug: tool.slug }] });
    expect(await (await get('/sitemap.xml')).text()).toContain(`/tools/${tool.slug}<`);
    const writingBefore = await categoryCount();
    expect((await withdraw(tool.id, tool.member.key)).status).toBe(200);

    const page = await get(`/tools/${tool.slug}`);
    expect(page.status).toBe(410);
    const html = await page.text();
    expect(html).toContain(`${tool.name} is no longer listed`);
    expect(html).toContain('<meta name="robots" content="noindex">');
    expect(await (await get(`/api/v1/tools/${tool.slug}`)).json()).toEqual({
      error: {
        code: 'gone',
        message: expect.stringMatching(/was withdrawn from the directory by its owner on \d{4}-\d\d-\d\d/),
      },
    });
    expect((await get(`/api/v1/tools/${tool.slug}`)).status).toBe(410);
    expect((await get(`/go/${tool.slug}`)).status).toBe(410);
    const badge = await get(`/badge/${tool.slug}.svg`);
    expect(badge.status).toBe(410);
    expect((await badge.json()).error.code).toBe('gone');

    expect((await (await get(`/api/v1/tools?q=${word}`)).json()).tools).toEqual([]);
    expect(await (await get(`/?q=${word}`)).text()).not.toContain(tool.name);
    expect(await (await get('/')).text()).not.toContain(tool.name);
    expect(await (await get('/categories/writing')).text()).not.toContain(tool.name);
    expect(await (await get('/sitemap.xml')).text()).not.toContain(`/tools/${tool.slug}<`);
    expect(await (await get('/llms.txt')).text()).not.toContain(tool.name);
    expect(await categoryCount()).toBe(writingBefore - 1);
    const mcp = await connectMcp(t);
    expect((resultJson(await callTool(mcp, 'search_tools', { query: word })) as { tools: unknown[] }).tools).toEqual(
      [],
    );
    expect(resultJson(await callTool(mcp, 'get_tool', { slug: tool.slug }))).toMatchObject({ error: { code: 'gone' } });
    expect(resultJson(await callTool(mcp, 'get_tool', { site_id: tool.id }))).toMatchObject({
      error: { code: 'not_found' },
    });
    await mcp.close();
  });

  it('is never served from the page cache afterwards (tool page, home, category, JSON search)', async () => {
    const tool = await liveTool(uniqueName('Cached Parchment'));
    const word = tool.name.split(' ').at(-1)!;
    const paths = [`/tools/${tool.slug}`, '/', '/categories/writing', `/api/v1/tools?q=${word}`];
    for (const path of paths) {
      expect((await get(path)).headers.get('x-cache'), path).toBe('miss');
      const hit = await get(path);
      expect(hit.headers.get('x-cache'), path).toBe('hit');
      expect(await hit.text(), path).toContain(tool.slug);
    }
    expect((await withdraw(tool.id, tool.member.key)).status).toBe(200);
    const page = await get(`/tools/${tool.slug}`);
    expect([page.status, page.headers.get('x-cache')]).toEqual([410, null]);
    for (const path of paths.slice(1)) expect(await (await get(path)).text(), path).not.toContain(tool.slug);
  });

  it('keeps its statistics readable by the owner', async () => {
    const tool = await liveTool();
    await withdraw(tool.id, tool.member.key);
    const stats = await t.request(`/api/v1/sites/${tool.id}/stats`, { key: tool.member.key });
    expect(stats.status).toBe(200);
    expect(await stats.json()).toMatchObject({ site_id: tool.id, totals: { views: 0 } });
  });

  it('frees the URL and the name: listing it again is a new submission, and its old page stays 410', async () => {
    const tool = await liveTool();
    const url = `https://${tool.slug}.example/`;
    const before = await t.request('/api/v1/submit-site', {
      method: 'POST',
      key: tool.member.key,
      json: { name: tool.name, url },
    });
    expect(before.status).toBe(409);
    await withdraw(tool.id, tool.member.key);
    const again = await t.request('/api/v1/submit-site', {
      method: 'POST',
      key: tool.member.key,
      json: { name: tool.name, url },
    });
    expect(again.status).toBe(201);
    const { site_id } = await again.json();
    expect(site_id).not.toBe(tool.id);
    // status <url> (the list's url filter and the CLI) finds the new submission first.
    const byUrl = await t.request(`/api/v1/sites?url=${encodeURIComponent(url)}`, { key: tool.member.key });
    expect((await byUrl.json()).sites.map((s: { site_id: string }) => s.site_id)).toEqual([site_id, tool.id]);
    expect((await get(`/tools/${tool.slug}`)).status).toBe(410);
  });

  it('cannot be republished by an editor (approve is refused); a new submission is the way back', async () => {
    const tool = await liveTool();
    await withdraw(tool.id, tool.member.key);
    const review = await t.request(`/api/v1/admin/sites/${tool.id}/review`, {
      method: 'POST',
      key: ADMIN_TOKEN,
      json: { decision: 'approve' },
    });
    expect(review.status).toBe(409);
    expect(await statusOf(tool.id)).toEqual({ status: 'rejected', withdrawn: true });
  });
});

describe('repeats and races', () => {
  it('a second DELETE answers the same record (200), with one history step and one event of each type', async () => {
    const tool = await liveTool();
    const webhook = await t.request('/api/v1/webhooks', {
      method: 'POST',
      key: tool.member.key,
      json: { url: 'https://hooks.example/tooldir' },
    });
    expect(webhook.status).toBe(201);
    const first = await (await withdraw(tool.id, tool.member.key)).json();
    const second = await withdraw(tool.id, tool.member.key);
    expect(second.status).toBe(200);
    expect(await second.json()).toEqual(first);
    expect(await historySteps(tool.id)).toBe(1);
    const events = await queryRows<{ event_type: string; data: unknown }>(
      t.deps.db,
      sql`SELECT event_type, data FROM webhook_deliveries WHERE site_id = ${tool.id}::uuid ORDER BY event_type`,
    );
    expect(events.map((e) => e.event_type)).toEqual(['site.status_changed', 'site.withdrawn']);
    const data = typeof events[1]!.data === 'string' ? JSON.parse(events[1]!.data) : events[1]!.data;
    expect(data).toEqual({
      site_id: tool.id,
      name: tool.name,
      url: `https://${tool.slug}.example/`,
      status: 'rejected',
      previous_status: 'live',
      reason: 'withdrawn by its owner',
      withdrawn_at: first.withdrawn_at,
    });
  });

  it('ten concurrent DELETEs all answer 200 and withdraw once', async () => {
    const tool = await liveTool();
    const answers = await Promise.all(Array.from({ length: 10 }, () => withdraw(tool.id, tool.member.key)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(await historySteps(tool.id)).toBe(1);
  });
});

describe('what DELETE refuses, changing nothing', () => {
  for (const status of ['pending_review', 'crawl_failed', 'rejected'] as const) {
    it(`a submission that is ${status}: 409 invalid_state naming it`, async () => {
      const member = await t.member('member');
      const tool = await seedOwnedTool(t.deps.db, member.accountId, { name: uniqueName('Not Live'), status });
      const res = await withdraw(tool.id, member.key);
      expect(res.status).toBe(409);
      expect(await res.json()).toEqual({
        error: { code: 'invalid_state', message: expect.stringContaining(`this submission is ${status}`) },
      });
      expect(await statusOf(tool.id)).toEqual({ status, withdrawn: false });
    });
  }

  it('a queued submission (just submitted): 409, still queued', async () => {
    const member = await t.member('member');
    const submit = await t.request('/api/v1/submit-site', {
      method: 'POST',
      key: member.key,
      json: { name: uniqueName('Queued'), url: `https://q-${crypto.randomUUID().slice(0, 8)}.example` },
    });
    const { site_id } = await submit.json();
    const res = await withdraw(site_id, member.key);
    expect(res.status).toBe(409);
    expect((await res.json()).error.message).toMatch(/only a live listing can be withdrawn/i);
  });

  it('an unpaid submission: 409 saying its link simply expires', async () => {
    const visitor = await t.member('none');
    const submit = await t.request('/api/v1/submit-site', {
      method: 'POST',
      key: visitor.key,
      json: { name: uniqueName('Unpaid'), url: `https://u-${crypto.randomUUID().slice(0, 8)}.example` },
    });
    expect(submit.status).toBe(402);
    const res = await withdraw((await submit.json()).site_id, visitor.key);
    expect(res.status).toBe(409);
    expect((await res.json()).error.message).toContain('pending_payment');
  });

  it("another account's listing, an unknown id and a malformed id: 404; no key: 401", async () => {
    const tool = await liveTool();
    const stranger = await t.member('member');
    for (const id of [tool.id, crypto.randomUUID(), 'not-a-uuid', '%00']) {
      const res = await withdraw(id, stranger.key);
      expect(res.status, id).toBe(404);
      expect((await res.json()).error.code, id).toBe('not_found');
    }
    const anonymous = await t.request(`/api/v1/sites/${tool.id}`, { method: 'DELETE' });
    expect(anonymous.status).toBe(401);
    expect(await statusOf(tool.id)).toEqual({ status: 'live', withdrawn: false });
  });
});

describe('a sponsored listing', () => {
  const sponsor = async (tool: { id: string }, subscription: string) =>
    queryRows(
      t.deps.db,
      sql`UPDATE sites SET is_sponsor = true, plan = 'sponsored', stripe_subscription_id = ${subscription}, sponsor_status = 'active',
          sponsor_period_end = now() + interval '20 days' WHERE id = ${tool.id}::uuid`,
    );
  const cancels = (subscription: string) =>
    payments.calls.filter((c) => c.method === 'cancelSubscriptionAtPeriodEnd' && c.args[0] === subscription).length;

  it('asks the payment provider once to cancel at the period end, and remembers it asked', async () => {
    const tool = await liveTool();
    const subscription = `sub_${crypto.randomUUID().slice(0, 8)}`;
    await sponsor(tool, subscription);
    await withdraw(tool.id, tool.member.key);
    await withdraw(tool.id, tool.member.key);
    expect(cancels(subscription)).toBe(1);
    const [row] = await queryRows<{ asked: boolean }>(
      t.deps.db,
      sql`SELECT sponsor_cancel_requested_at IS NOT NULL AS asked FROM sites WHERE id = ${tool.id}::uuid`,
    );
    expect(row!.asked).toBe(true);
  });

  it('a provider failure leaves the withdrawal in place, and the next DELETE asks again', async () => {
    const tool = await liveTool();
    const subscription = `sub_${crypto.randomUUID().slice(0, 8)}`;
    await sponsor(tool, subscription);
    const original = payments.cancelSubscriptionAtPeriodEnd;
    payments.cancelSubscriptionAtPeriodEnd = async () => {
      throw new Error('Stripe is down');
    };
    try {
      expect((await withdraw(tool.id, tool.member.key)).status).toBe(200);
    } finally {
      payments.cancelSubscriptionAtPeriodEnd = original;
    }
    expect(await statusOf(tool.id)).toEqual({ status: 'rejected', withdrawn: true });
    expect(cancels(subscription)).toBe(0);
    expect((await withdraw(tool.id, tool.member.key)).status).toBe(200);
    expect(cancels(subscription)).toBe(1);
  });

  it('a listing without a subscription asks nothing', async () => {
    const before = payments.calls.length;
    const tool = await liveTool();
    await withdraw(tool.id, tool.member.key);
    expect(payments.calls.length).toBe(before);
  });
});

describe('MCP withdraw_site', () => {
  it('withdraws with the REST answer, and refuses what REST refuses', async () => {
    const tool = await liveTool();
    const client = await connectMcp(t, { key: tool.member.key });
    const result = await callTool(client, 'withdraw_site', { site_id: tool.id });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      site_id: tool.id,
      status: 'rejected',
      rejection_reason: 'withdrawn by its owner',
    });
    expect(result.structuredContent).toEqual(
      await (await t.request(`/api/v1/sites/${tool.id}`, { key: tool.member.key })).json(),
    );
    const stranger = await connectMcp(t, { key: (await t.member('member')).key });
    expect(resultJson(await callTool(stranger, 'withdraw_site', { site_id: tool.id }))).toMatchObject({
      error: { code: 'not_found' },
    });
    const anonymous = await connectMcp(t);
    expect(resultJson(await callTool(anonymous, 'withdraw_site', { site_id: tool.id }))).toMatchObject({
      error: { code: 'unauthorized' },
    });
    await Promise.all([client.close(), stranger.close(), anonymous.close()]);
  });
});

async function historySteps(siteId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    t.deps.db,
    sql`SELECT count(*)::int AS n FROM site_history WHERE site_id = ${siteId}::uuid AND to_status = 'rejected'`,
  );
  return Number(row!.n);
}

async function categoryCount(): Promise<number> {
  const body = await (await get('/api/v1/categories')).json();
  return body.categories.find((c: { slug: string }) => c.slug === 'writing').tool_count;
}
