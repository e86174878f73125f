// How often one client can move a counter (docs/stats.md "A few per client and day"): through app.request with
// the client address as Workers report it (cf-connecting-ip), counted into the database engine, read back from
// stat_counters; and what the engine keeps of the client (marks only, only today's).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client';
import { DAILY_BOUND } from '../../../src/stats/per-client-bounds';
import { visitorMark } from '../../../src/stats/visitor-marks';
import { PREFIX_48_MULTIPLIER } from '../../../src/rate-limits/policies';
import { seedTools } from '../../helpers/live-tools';
import { statsHarness } from '../../helpers/stats-harness';
import { createTestApp, type TestApp } from '../../helpers/test-app';

let clock = new Date();
let t: TestApp;
let h: ReturnType<typeof statsHarness>;
beforeAll(async () => {
  t = await createTestApp({ overrides: { now: () => clock } });
  h = statsHarness(t);
});
afterAll(() => t?.close());

let addresses = 0;
/** A client no other test uses. */
const freshClient = () => `198.51.100.${++addresses}`;
const from = (client: string, path: string, headers: Record<string, string> = {}) =>
  h.visit(path, { headers: { 'cf-connecting-ip': client, ...headers } });

/** What the engine counted for one tool today, by counter. */
async function countsOf(slug: string): Promise<Record<string, number>> {
  await h.settle();
  const rows = await queryRows<{ counter: string; n: number }>(
    t.deps.db,
    sql`SELECT counter, n::int AS n FROM stat_counters WHERE slug = ${slug}`,
  );
  return Object.fromEntries(rows.map((r) => [r.counter, r.n]));
}

const tool = async (name: string) =>
  (await seedTools(t.deps.db, [{ name: `${name} ${crypto.randomUUID().slice(0, 6)}` }]))[0]!;

describe('one client moves each counter a few times a day', () => {
  it('views, clicks and badge loads: at most 3 per client, tool and day; other clients and other tools count on', async () => {
    const rival = await tool('Bounded Rival');
    const other = await tool('Bounded Other');
    const client = freshClient();
    for (let i = 0; i < 10; i++) {
      expect((await from(client, `/tools/${rival.slug}`)).status).toBe(200);
      expect((await from(client, `/go/${rival.slug}`)).status).toBe(302);
      expect((await from(client, `/badge/${rival.slug}.svg${i % 2 ? '?theme=dark' : ''}`)).status).toBe(200);
    }
    expect(await countsOf(rival.slug)).toEqual({
      views: DAILY_BOUND.views,
      clicks: DAILY_BOUND.clicks,
      badge_loads: DAILY_BOUND.badge_loads,
    });
    expect(DAILY_BOUND).toMatchObject({ views: 3, clicks: 3, badge_loads: 3 });

    expect((await from(freshClient(), `/tools/${rival.slug}`)).status).toBe(200);
    expect((await from(client, `/tools/${other.slug}`)).status).toBe(200);
    expect((await countsOf(rival.slug)).views).toBe(4);
    expect(await countsOf(other.slug)).toEqual({ views: 1 });
  });

  it('a card counts once per page and client: reloading a cached search, with or without junk parameters, adds nothing', async () => {
    const rival = await tool('Reloaded Searchable');
    const q = encodeURIComponent(rival.name);
    const client = freshClient();
    const first = await from(client, `/?q=${q}`);
    expect(first.headers.get('x-cache')).toBe('miss');
    for (const path of [
      `/?q=${q}`,
      `/?q=${q}`,
      `/?q=${q}&junk=1`,
      `/?q=${q}&utm_source=x&after=y`,
      `/?q=${q}&junk=2`,
    ]) {
      const again = await from(client, path);
      expect(again.status, path).toBe(200);
      expect(again.headers.get('x-cache'), path).toBe('hit'); // the same page: no new entry, and counted as that page
    }
    expect(await countsOf(rival.slug)).toEqual({ impressions_standard: 1 });
    expect((await from(freshClient(), `/?q=${q}&junk=3`)).status).toBe(200);
    expect(await countsOf(rival.slug)).toEqual({ impressions_standard: 2 });
  });

  it(`a card counts at most ${DAILY_BOUND.impressions} times a day per client, over as many distinct pages`, async () => {
    const word = Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => String.fromCharCode(97 + (b % 26))).join(
      '',
    );
    const [rival] = await seedTools(t.deps.db, [{ name: `Casefold ${word}` }]);
    // Distinct searches (each its own page) that all find the tool: the same word in other letter cases.
    const spellings = Array.from({ length: DAILY_BOUND.impressions + 4 }, (_, i) =>
      [...word].map((ch, j) => ((i >> j) & 1 ? ch.toUpperCase() : ch.toLowerCase())).join(''),
    );
    expect(new Set(spellings).size).toBe(spellings.length);
    const client = freshClient();
    for (const spelling of spellings) {
      const res = await from(client, `/?q=${spelling}`);
      expect(await res.text(), spelling).toContain(`/tools/${rival!.slug}`);
    }
    expect(await countsOf(rival!.slug)).toEqual({ impressions_standard: DAILY_BOUND.impressions });
  });

  it(`an IPv6 /48 counts at most ${PREFIX_48_MULTIPLIER} times the bound, however many /64s it uses`, async () => {
    const rival = await tool('Tunnelled');
    const networks = PREFIX_48_MULTIPLIER + 4;
    for (let n = 0; n < networks; n++) {
      for (let i = 0; i < DAILY_BOUND.views + 1; i++) {
        expect((await from(`2001:db8:48:${n.toString(16)}::${i + 1}`, `/tools/${rival.slug}`)).status).toBe(200);
      }
    }
    expect(await countsOf(rival.slug)).toEqual({ views: DAILY_BOUND.views * PREFIX_48_MULTIPLIER });
    // Another /48 is another network.
    expect((await from('2001:db8:49:1::1', `/tools/${rival.slug}`)).status).toBe(200);
    expect(await countsOf(rival.slug)).toEqual({ views: DAILY_BOUND.views * PREFIX_48_MULTIPLIER + 1 });
  });
});

describe('what the engine keeps of a client', () => {
  it("only keyed hashes of today's key, forgotten when the day is over; the next day counts afresh", async () => {
    const day = '2031-03-04';
    clock = new Date(`${day}T23:59:00Z`);
    try {
      const rival = await tool('Day Key');
      const client = freshClient();
      for (let i = 0; i < 5; i++) expect((await from(client, `/tools/${rival.slug}`)).status).toBe(200);
      await h.settle();
      const marks = await queryRows<{ day: string; mark: string; n: number }>(
        t.deps.db,
        sql`SELECT day::text AS day, encode(mark, 'hex') AS mark, n FROM stat_visitor_marks WHERE day = ${day}::date`,
      );
      // The client's daily mark, keyed by this day: the address is in no row, only the hash.
      const mark = visitorMark(t.deps.config, day, ['client', client, rival.slug, 'views']);
      expect(marks).toContainEqual({ day, mark, n: 5 });
      expect(marks.every((m) => /^[0-9a-f]{24}$/.test(m.mark))).toBe(true);
      const text = JSON.stringify(await queryRows(t.deps.db, sql`SELECT * FROM stat_visitor_marks`));
      expect(text).not.toContain(client);
      expect(text).not.toContain(rival.slug);

      clock = new Date(`2031-03-05T00:00:30Z`);
      for (let i = 0; i < 5; i++) expect((await from(client, `/tools/${rival.slug}`)).status).toBe(200);
      await h.settle();
      const days = await queryRows<{ day: string }>(
        t.deps.db,
        sql`SELECT DISTINCT day::text AS day FROM stat_visitor_marks`,
      );
      expect(days).toEqual([{ day: '2031-03-05' }]);
      const next = visitorMark(t.deps.config, '2031-03-05', ['client', client, rival.slug, 'views']);
      expect(next).not.toBe(mark); // the key rotated with the day
      const counted = await queryRows<{ day: string; n: number }>(
        t.deps.db,
        sql`SELECT day::text AS day, n::int AS n FROM stat_counters WHERE slug = ${rival.slug} ORDER BY day`,
      );
      expect(counted).toEqual([
        { day, n: DAILY_BOUND.views },
        { day: '2031-03-05', n: DAILY_BOUND.views },
      ]);
    } finally {
      clock = new Date();
    }
  });

  it('the roll-up forgets the marks of days that are over, even when nobody was counted since', async () => {
    clock = new Date('2031-06-01T12:00:00Z');
    try {
      expect((await from(freshClient(), `/tools/${(await tool('Quiet Day')).slug}`)).status).toBe(200);
      await h.settle();
      expect(await queryRows(t.deps.db, sql`SELECT 1 FROM stat_visitor_marks WHERE day = '2031-06-01'`)).not.toEqual(
        [],
      );
      clock = new Date('2031-06-02T00:10:00Z');
      const { rollUpStats } = await import('../../../src/stats/roll-up');
      await rollUpStats(t.deps);
      expect(await queryRows(t.deps.db, sql`SELECT 1 FROM stat_visitor_marks WHERE day < '2031-06-02'`)).toEqual([]);
    } finally {
      clock = new Date();
    }
  });
});
