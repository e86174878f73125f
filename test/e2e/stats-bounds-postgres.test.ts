// The database engine's per-client bounds on a real PostgreSQL server (src/adapters/stats/database.ts), with
// several processes' batches written at once on separate connections: a mark's last place is taken once (the
// totals are exactly the bounds, whatever the interleaving), concurrent writers never deadlock, and the marks
// table is unlogged and holds no address.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client';
import { createLogger } from '../../src/log';
import { PREFIX_48_MULTIPLIER } from '../../src/rate-limits/policies';
import { DAILY_BOUND } from '../../src/stats/per-client-bounds';
import { seedTools } from '../helpers/live-tools';
import { usePostgresTestApp } from '../helpers/services/postgres-test-app';
import { findPostgresBinaries } from '../helpers/services/postgres';
import { requireService } from '../helpers/services/require-service';
import { statsHarness } from '../helpers/stats-harness';
import { createTestApp, type TestApp } from '../helpers/test-app';

const describePg = requireService('PostgreSQL', findPostgresBinaries() !== null);

describePg('per-client bounds on PostgreSQL, four processes writing at once', () => {
  const pg = usePostgresTestApp({ connections: 20 });
  const warnings: string[] = [];

  /** Four processes (each its own store, so its own batches) on one database, like four Workers isolates. */
  async function processes(): Promise<{ apps: TestApp[]; close(): Promise<void> }> {
    const log = createLogger('warn', (line) => warnings.push(line));
    const apps = await Promise.all(
      Array.from({ length: 4 }, () =>
        createTestApp({ db: { db: pg.t.deps.db, close: async () => {} }, overrides: { log } }),
      ),
    );
    return { apps, close: async () => void (await Promise.all(apps.map((a) => a.close()))) };
  }

  async function countsOf(slugs: string[]): Promise<Record<string, Record<string, number>>> {
    const rows = await queryRows<{ slug: string; counter: string; n: number }>(
      pg.t.deps.db,
      sql`SELECT slug, counter, n::int AS n FROM stat_counters WHERE slug IN (${sql.join(
        slugs.map((slug) => sql`${slug}`),
        sql`, `,
      )})`,
    );
    const out: Record<string, Record<string, number>> = {};
    for (const r of rows) (out[r.slug] ??= {})[r.counter] = r.n;
    return out;
  }

  it('one client loading a page 40 times through four processes at once counts its bound, exactly', async () => {
    const { apps, close } = await processes();
    try {
      const [tool] = await seedTools(pg.t.deps.db, [{ name: `Raced ${crypto.randomUUID().slice(0, 6)}` }]);
      const harnesses = apps.map(statsHarness);
      const client = { 'cf-connecting-ip': '192.0.2.90' };
      const loads = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          harnesses[i % 4]!.visit(i % 2 ? `/tools/${tool!.slug}` : `/go/${tool!.slug}`, { headers: client }),
        ),
      );
      expect(loads.every((r) => r.status === 200 || r.status === 302)).toBe(true);
      await Promise.all(harnesses.map((h) => h.settle()));
      expect(await countsOf([tool!.slug])).toEqual({
        [tool!.slug]: { views: DAILY_BOUND.views, clicks: DAILY_BOUND.clicks },
      });
    } finally {
      await close();
    }
  });

  it('many clients, tools and networks at once: the totals the bounds give, and no deadlock or lost batch', async () => {
    const { apps, close } = await processes();
    try {
      const tools = await seedTools(
        pg.t.deps.db,
        Array.from({ length: 6 }, (_, i) => ({ name: `Crowd ${i} ${crypto.randomUUID().slice(0, 6)}` })),
      );
      const harnesses = apps.map(statsHarness);
      // 2 IPv4 clients and 2 /48 networks of 20 /64s each; every client loads every tool 5 times, in a shuffled order.
      const clients = [
        '192.0.2.91',
        '192.0.2.92',
        ...[0xa1, 0xa2].flatMap((net) =>
          Array.from({ length: 20 }, (_, i) => `2001:db8:${net.toString(16)}:${i.toString(16)}::1`),
        ),
      ];
      const visits = clients.flatMap((client) =>
        tools.flatMap((tool) => Array.from({ length: 5 }, () => ({ client, slug: tool.slug }))),
      );
      visits.sort(() => Math.random() - 0.5);
      warnings.length = 0;
      for (let i = 0; i < visits.length; i += 40) {
        await Promise.all(
          visits
            .slice(i, i + 40)
            .map(({ client, slug }, j) =>
              harnesses[j % 4]!.visit(`/tools/${slug}`, { headers: { 'cf-connecting-ip': client } }),
            ),
        );
      }
      await Promise.all(harnesses.map((h) => h.settle()));
      // Per tool: 3 from each IPv4 client, and per /48 min(20 × 3, 3 × 16).
      const perNetwork = Math.min(20 * DAILY_BOUND.views, DAILY_BOUND.views * PREFIX_48_MULTIPLIER);
      const expected = 2 * DAILY_BOUND.views + 2 * perNetwork;
      expect(await countsOf(tools.map((t) => t.slug))).toEqual(
        Object.fromEntries(tools.map((t) => [t.slug, { views: expected }])),
      );
      expect(warnings.filter((w) => w.includes('statistics not counted'))).toEqual([]);
    } finally {
      await close();
    }
  });

  it('keeps the marks in an unlogged table, as bytes that hold no address', async () => {
    const [table] = await queryRows<{ relpersistence: string }>(
      pg.t.deps.db,
      sql`SELECT relpersistence FROM pg_class WHERE relname = 'stat_visitor_marks'`,
    );
    expect(table).toEqual({ relpersistence: 'u' });
    const text = JSON.stringify(
      await queryRows(
        pg.t.deps.db,
        sql`SELECT day::text, encode(mark, 'escape') AS raw, encode(mark, 'hex') AS hex, n FROM stat_visitor_marks`,
      ),
    );
    expect(text.length).toBeGreaterThan(100);
    for (const address of ['192.0.2.9', '2001:db8', 'raced-', 'crowd-']) expect(text).not.toContain(address);
  });
});
