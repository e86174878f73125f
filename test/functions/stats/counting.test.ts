// What moves which counter (docs/stats.md): each counted thing moves exactly its counter; bots, agent-less
// requests, prefetches and HEADs move none; a failing engine never fails a page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../../src/db/client';
import { createLogger } from '../../../src/log';
import type { StatsStore } from '../../../src/adapters/stats/types';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { seedOwnedTool } from '../../helpers/owned-tools';
import { seedTools } from '../../helpers/live-tools';
import { only, statsHarness } from '../../helpers/stats-harness';

let t: TestApp;
let h: ReturnType<typeof statsHarness>;
beforeAll(async () => {
  t = await createTestApp();
  h = statsHarness(t);
});
afterAll(() => t?.close());

async function ownedLiveTool(name = 'Counted Tool') {
  const owner = await t.member();
  const tool = await seedOwnedTool(t.deps.db, owner.accountId, { name: `${name} ${crypto.randomUUID().slice(0, 6)}` });
  return { ...tool, key: owner.key };
}

const today = () => new Date().toISOString().slice(0, 10);
const todayOf = (stats: { days: { date: string }[] }) => stats.days.find((d) => d.date === today());

describe('each counted request moves exactly its counter', () => {
  it('a tool page load is one view', async () => {
    const tool = await ownedLiveTool();
    expect((await h.visit(`/tools/${tool.slug}`)).status).toBe(200);
    const stats = await h.statsOf(tool.id, tool.key);
    expect(todayOf(stats)).toEqual({ date: today(), ...only({ views: 1 }) });
  });

  it('a visit through the outbound link is one click', async () => {
    const tool = await ownedLiveTool();
    const res = await h.visit(`/go/${tool.slug}`);
    expect(res.status).toBe(302);
    const stats = await h.statsOf(tool.id, tool.key);
    expect(todayOf(stats)).toEqual({ date: today(), ...only({ clicks: 1 }) });
  });

  it('a badge served is one badge load, in either theme', async () => {
    const tool = await ownedLiveTool();
    expect((await h.visit(`/badge/${tool.slug}.svg`)).status).toBe(200);
    expect((await h.visit(`/badge/${tool.slug}.svg?theme=dark`)).status).toBe(200);
    const stats = await h.statsOf(tool.id, tool.key);
    expect(todayOf(stats)).toEqual({ date: today(), ...only({ badge_loads: 2 }) });
  });

  it('a card on the home page, a category page and in search results is one impression per render, by placement', async () => {
    const tool = await ownedLiveTool('Impression Unicorn');
    await queryRows(
      t.deps.db,
      sql`INSERT INTO site_categories (site_id, category_slug) VALUES (${tool.id}::uuid, 'writing')`,
    );
    const home = await h.visit('/');
    expect(await home.text()).toContain(`/tools/${tool.slug}`);
    expect(home.headers.get('x-tooldir-impressions')).toBeNull(); // the declaration never leaves the app
    expect((await h.visit('/categories/writing')).status).toBe(200);
    expect((await h.visit(`/?q=${encodeURIComponent('Impression Unicorn')}`)).status).toBe(200);
    const stats = await h.statsOf(tool.id, tool.key);
    expect(todayOf(stats)).toEqual({ date: today(), ...only({ impressions: 3 }) });
    expect(stats.totals.impressions_by_placement).toEqual({ sponsored: 0, featured: 0, standard: 3 });
  });

  it('sponsored and featured cards are told apart', async () => {
    const [sponsor, featured] = await seedTools(t.deps.db, [
      { name: `Sponsor Card ${crypto.randomUUID().slice(0, 6)}`, isSponsor: true },
      { name: `Featured Card ${crypto.randomUUID().slice(0, 6)}`, isFeature: true },
    ]);
    expect((await h.visit('/')).status).toBe(200);
    await h.settle();
    const rows = await queryRows<{ slug: string; counter: string; n: number }>(
      t.deps.db,
      sql`SELECT slug, counter, n::int AS n FROM stat_counters WHERE slug IN (${sponsor!.slug}, ${featured!.slug}) ORDER BY counter`,
    );
    expect(rows).toEqual([
      { slug: featured!.slug, counter: 'impressions_featured', n: 1 },
      { slug: sponsor!.slug, counter: 'impressions_sponsored', n: 1 },
    ]);
  });
});

describe('what is not counted', () => {
  it('bots, requests without a user agent, prefetches and HEAD requests move nothing', async () => {
    const tool = await ownedLiveTool();
    const bot = { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' };
    for (const path of [`/tools/${tool.slug}`, `/go/${tool.slug}`, `/badge/${tool.slug}.svg`, '/']) {
      expect((await h.visit(path, { headers: bot })).status).toBeLessThan(400);
      expect((await h.visit(path, { headers: { 'user-agent': '' } })).status).toBeLessThan(400);
      expect((await h.visit(path, { headers: { 'sec-purpose': 'prefetch' } })).status).toBeLessThan(400);
      expect((await h.visit(path, { headers: { 'sec-purpose': 'prefetch;prerender' } })).status).toBeLessThan(400);
      expect((await h.visit(path, { headers: { purpose: 'prefetch' } })).status).toBeLessThan(400);
      expect((await h.visit(path, { method: 'HEAD' })).status).toBeLessThan(400);
    }
    const stats = await h.statsOf(tool.id, tool.key);
    expect(stats.totals).toMatchObject(only({}));
  });

  it('a page that is not a live tool counts nothing, and an unknown slug writes no counter', async () => {
    const owner = await t.member();
    const pending = await seedOwnedTool(t.deps.db, owner.accountId, {
      name: `Pending ${crypto.randomUUID().slice(0, 6)}`,
      status: 'pending_review',
    });
    const before = await queryRows<{ n: number }>(t.deps.db, sql`SELECT count(*)::int AS n FROM stat_counters`);
    for (const path of [
      `/tools/${pending.slug}`,
      `/go/${pending.slug}`,
      `/badge/${pending.slug}.svg`,
      '/tools/no-such-tool',
      '/go/no-such-tool',
    ]) {
      expect((await h.visit(path)).status, path).toBe(404);
    }
    await h.settle();
    const after = await queryRows<{ n: number }>(t.deps.db, sql`SELECT count(*)::int AS n FROM stat_counters`);
    expect(after).toEqual(before);
  });
});

describe('counting never costs the page', () => {
  it('an engine that throws or rejects leaves every page at 200 (302 for the link) and logs a warning with what was lost', async () => {
    const lines: string[] = [];
    const failing: StatsStore = {
      kind: 'database',
      record: () => {
        throw new Error('engine down');
      },
      readDay: async () => [],
      forgetMarksBefore: async () => {},
    };
    const rejecting: StatsStore = { ...failing, record: () => Promise.reject(new Error('engine timeout')) };
    for (const stats of [failing, rejecting]) {
      const log = createLogger('warn', (line) => lines.push(line));
      const broken = await createTestApp({ db: { db: t.deps.db, close: async () => {} }, overrides: { stats, log } });
      const bh = statsHarness(broken);
      const [tool] = await seedTools(broken.deps.db, [{ name: `Broken Engine ${crypto.randomUUID().slice(0, 6)}` }]);
      expect((await bh.visit(`/tools/${tool!.slug}`)).status).toBe(200);
      expect((await bh.visit('/')).status).toBe(200);
      expect((await bh.visit(`/badge/${tool!.slug}.svg`)).status).toBe(200);
      expect((await bh.visit(`/go/${tool!.slug}`)).status).toBe(302);
      await bh.settle();
      await broken.close();
    }
    // Events are written in batches (src/stats/count.ts), so one line may stand for several requests: every
    // event is accounted for in the lines (3 visits of the tool + its one card among the home page's cards).
    const lost = lines
      .filter((l) => l.includes('statistics not counted'))
      .map((l) => JSON.parse(l) as { events: number });
    expect(lost.length).toBeGreaterThanOrEqual(2);
    expect(lost.reduce((sum, l) => sum + l.events, 0)).toBeGreaterThanOrEqual(8);
  });

  it('batches: 40 concurrent page loads (40 clients) are written in a handful of engine calls, every one handed over', async () => {
    const calls: number[] = [];
    const recording: StatsStore = {
      kind: 'database',
      record: async (_day, rows) => void calls.push(rows.reduce((sum, r) => sum + r.n, 0)),
      readDay: async () => [],
      forgetMarksBefore: async () => {},
    };
    const batched = await createTestApp({
      db: { db: t.deps.db, close: async () => {} },
      overrides: { stats: recording },
    });
    const bh = statsHarness(batched);
    const [tool] = await seedTools(batched.deps.db, [{ name: `Batched ${crypto.randomUUID().slice(0, 6)}` }]);
    const pages = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        bh.visit(`/tools/${tool!.slug}`, { headers: { 'cf-connecting-ip': `198.51.100.${i + 1}` } }),
      ),
    );
    expect(pages.every((p) => p.status === 200)).toBe(true);
    await bh.settle();
    expect(calls.reduce((a, b) => a + b, 0)).toBe(40);
    expect(calls.length).toBeLessThanOrEqual(4);
    await batched.close();
  });

  it('STATS_COUNTING=false counts nothing', async () => {
    const off = await createTestApp({ db: { db: t.deps.db, close: async () => {} }, env: { STATS_COUNTING: 'false' } });
    const oh = statsHarness(off);
    const [tool] = await seedTools(off.deps.db, [{ name: `Uncounted ${crypto.randomUUID().slice(0, 6)}` }]);
    expect((await oh.visit(`/tools/${tool!.slug}`)).status).toBe(200);
    await oh.settle();
    const rows = await queryRows(t.deps.db, sql`SELECT 1 FROM stat_counters WHERE slug = ${tool!.slug}`);
    expect(rows).toEqual([]);
    await off.close();
  });
});
