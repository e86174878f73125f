// GET /api/v1/sites/{site_id}/stats: the owner only, every day of the range (zeros too), the range rules, and a
// roll-up that can run any number of times (docs/stats.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../../src/db/client';
import { rollUpStats } from '../../../src/stats/roll-up';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { seedOwnedTool } from '../../helpers/owned-tools';
import { only, statsHarness } from '../../helpers/stats-harness';
import { expectErrorBody, operator } from '../../helpers/raw-requests';

let t: TestApp;
let h: ReturnType<typeof statsHarness>;
beforeAll(async () => {
  t = await createTestApp();
  h = statsHarness(t);
});
afterAll(() => t?.close());

async function owned(status?: 'live' | 'rejected') {
  const owner = await t.member();
  const tool = await seedOwnedTool(t.deps.db, owner.accountId, {
    name: `Stats Tool ${crypto.randomUUID().slice(0, 6)}`,
    status,
  });
  return { ...tool, key: owner.key, keyId: owner.keyId, accountId: owner.accountId };
}

/** Counters of a past day as the engine would hold them (the roll-up reads them like any other day). */
async function engineDay(day: string, slug: string, counts: Record<string, number>) {
  for (const [counter, n] of Object.entries(counts)) {
    await queryRows(
      t.deps.db,
      sql`INSERT INTO stat_counters (day, slug, counter, n) VALUES (${day}::date, ${slug}, ${counter}, ${n})`,
    );
  }
}

describe('the body', () => {
  it('lists every day of the range oldest first, zeros where nothing happened, with totals and the click-through rate', async () => {
    const tool = await owned();
    await engineDay('2026-03-02', tool.slug, {
      views: 40,
      clicks: 6,
      impressions_standard: 150,
      impressions_featured: 10,
      badge_loads: 7,
    });
    await engineDay('2026-03-04', tool.slug, { views: 2, impressions_sponsored: 8 });
    await rollUpStats(t.deps, { days: ['2026-03-02', '2026-03-04'] });
    const res = await t.request(`/api/v1/sites/${tool.id}/stats?from=2026-03-01&to=2026-03-05`, { key: tool.key });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      site_id: tool.id,
      from: '2026-03-01',
      to: '2026-03-05',
      days: [
        { date: '2026-03-01', ...only({}) },
        { date: '2026-03-02', ...only({ views: 40, clicks: 6, impressions: 160, badge_loads: 7 }) },
        { date: '2026-03-03', ...only({}) },
        { date: '2026-03-04', ...only({ views: 2, impressions: 8 }) },
        { date: '2026-03-05', ...only({}) },
      ],
      totals: {
        ...only({ views: 42, clicks: 6, impressions: 168, badge_loads: 7 }),
        impressions_by_placement: { sponsored: 8, featured: 10, standard: 150 },
        click_through_rate: 0.0286, // 6 / (168 + 42)
      },
    });
  });

  it('defaults to the 30 days up to today; a rejected tool keeps its numbers; a tool never shown has a null rate', async () => {
    const tool = await owned('rejected');
    const body = await (await t.request(`/api/v1/sites/${tool.id}/stats`, { key: tool.key })).json();
    const today = new Date().toISOString().slice(0, 10);
    expect(body.days).toHaveLength(30);
    expect(body.to).toBe(today);
    expect(body.days.at(-1).date).toBe(today);
    expect(body.totals.click_through_rate).toBeNull();
    const one = await (await t.request(`/api/v1/sites/${tool.id}/stats?from=${today}`, { key: tool.key })).json();
    expect(one.days).toEqual([{ date: today, ...only({}) }]);
  });
});

describe('who may read', () => {
  it('needs a key; another account, an unknown id and a malformed id are the same 404', async () => {
    const tool = await owned();
    const stranger = await t.member();
    const noKey = await t.request(`/api/v1/sites/${tool.id}/stats`);
    expect(noKey.status).toBe(401);
    await expectErrorBody(noKey, 'unauthorized');
    const badKey = await t.request(`/api/v1/sites/${tool.id}/stats`, { key: 'tdk_not_a_real_key' });
    expect(badKey.status).toBe(401);
    for (const [id, key] of [
      [tool.id, stranger.key],
      [crypto.randomUUID(), tool.key],
      ['not-a-uuid', tool.key],
      ["1' OR '1'='1", tool.key],
    ] as const) {
      const res = await t.request(`/api/v1/sites/${encodeURIComponent(id)}/stats`, { key });
      expect(res.status, id).toBe(404);
      expect(await res.json()).toEqual({
        error: { code: 'not_found', message: 'No submission with this site_id among yours.' },
      });
    }
  });

  it('refuses a revoked key', async () => {
    const tool = await owned();
    expect((await t.request(`/api/v1/sites/${tool.id}/stats`, { key: tool.key })).status).toBe(200);
    const revoke = await operator(t, `/api/v1/admin/keys/${tool.keyId}`, { method: 'DELETE' });
    expect(revoke.status).toBeLessThan(300);
    expect((await t.request(`/api/v1/sites/${tool.id}/stats`, { key: tool.key })).status).toBe(401);
  });
});

describe('the range', () => {
  it('answers 400 invalid_request for a date that is not one, from after to, and more than 400 days', async () => {
    const tool = await owned();
    const bad: [string, RegExp][] = [
      ['?from=2026-02-30', /from must be a calendar date/],
      ['?to=2026-13-01', /to must be a calendar date/],
      ['?from=yesterday', /from must be a calendar date/],
      ['?from=2026-1-1', /from must be a calendar date/],
      ['?from=%00', /from must be a calendar date/],
      [`?from=${'9'.repeat(5000)}`, /from must be a date/],
      ['?from=2026-03-05&to=2026-03-01', /from \(2026-03-05\) must not be after to \(2026-03-01\)/],
      ['?from=2025-01-01&to=2026-02-05', /401 days; at most 400/],
    ];
    for (const [query, message] of bad) {
      const res = await t.request(`/api/v1/sites/${tool.id}/stats${query}`, { key: tool.key });
      expect(res.status, query).toBe(400);
      const body = await res.json();
      expect(body.error.code, query).toBe('invalid_request');
      expect(body.error.message, query).toMatch(message);
    }
  });

  it('serves exactly 400 days', async () => {
    const tool = await owned();
    const res = await t.request(`/api/v1/sites/${tool.id}/stats?from=2025-01-01&to=2026-02-04`, { key: tool.key });
    expect(res.status).toBe(200);
    expect((await res.json()).days).toHaveLength(400);
  });
});

describe('the roll-up', () => {
  it('is idempotent by day and tool: running it again, or twice at once, changes nothing', async () => {
    const tool = await owned();
    await engineDay('2026-04-10', tool.slug, { views: 5, clicks: 1, impressions_standard: 20, badge_loads: 3 });
    const read = async () =>
      (await t.request(`/api/v1/sites/${tool.id}/stats?from=2026-04-10&to=2026-04-10`, { key: tool.key })).json();
    await rollUpStats(t.deps, { days: ['2026-04-10'] });
    const first = await read();
    await rollUpStats(t.deps, { days: ['2026-04-10'] });
    await Promise.all([rollUpStats(t.deps, { days: ['2026-04-10'] }), rollUpStats(t.deps, { days: ['2026-04-10'] })]);
    expect(await read()).toEqual(first);
    expect(first.days).toEqual([
      { date: '2026-04-10', ...only({ views: 5, clicks: 1, impressions: 20, badge_loads: 3 }) },
    ]);
    const rows = await queryRows(t.deps.db, sql`SELECT 1 FROM site_stats_daily WHERE site_id = ${tool.id}::uuid`);
    expect(rows).toHaveLength(1);
  });

  it('takes the newer totals of a day as they grow, never adds them up, and skips slugs that are no site', async () => {
    const tool = await owned();
    await engineDay('2026-04-11', tool.slug, { views: 2 });
    await engineDay('2026-04-11', 'no-such-slug-anywhere', { views: 9 });
    expect(await rollUpStats(t.deps, { days: ['2026-04-11'] })).toEqual({ days: [{ day: '2026-04-11', tools: 1 }] });
    await h.settle();
    await queryRows(t.deps.db, sql`UPDATE stat_counters SET n = 7 WHERE slug = ${tool.slug} AND day = '2026-04-11'`);
    await rollUpStats(t.deps, { days: ['2026-04-11'] });
    const body = await (
      await t.request(`/api/v1/sites/${tool.id}/stats?from=2026-04-11&to=2026-04-11`, { key: tool.key })
    ).json();
    expect(body.totals.views).toBe(7);
  });

  it('runs as the job POST /api/jobs/stats-rollup (operator token locally), which refuses bad bodies', async () => {
    const tool = await owned();
    await engineDay('2026-04-12', tool.slug, { clicks: 4 });
    const unsigned = await t.request('/api/jobs/stats-rollup', { method: 'POST', json: {} });
    expect(unsigned.status).toBe(401);
    for (const json of [
      { days: ['2026-02-30'] },
      { days: 'today' },
      { days: Array.from({ length: 41 }, () => '2026-04-12') },
    ]) {
      const res = await t.request('/api/jobs/stats-rollup', {
        method: 'POST',
        key: 'test-admin-token-0123456789abcdef',
        json,
      });
      expect(res.status, JSON.stringify(json).slice(0, 40)).toBe(400);
    }
    const bad = await t.request('/api/jobs/stats-rollup', {
      method: 'POST',
      key: 'test-admin-token-0123456789abcdef',
      body: '{nope',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    const res = await t.request('/api/jobs/stats-rollup', {
      method: 'POST',
      key: 'test-admin-token-0123456789abcdef',
      json: { days: ['2026-04-12'] },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, outcome: 'rolled_up', days: [{ day: '2026-04-12', tools: 1 }] });
  });
});
