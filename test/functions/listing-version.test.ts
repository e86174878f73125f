// What the public pages' cache relies on and no verb writes (drizzle/0029_listing_version.sql): categories.live_tools,
// the live tools of each category, and listing_version, a number every change to what the pages show bumps.
// Triggers keep both; these tests change sites and categories every way the service does and compare with what
// they should be, on PGlite and with racing writers on a real PostgreSQL server.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows, type Db } from '../../src/db/client';
import { findPostgresBinaries } from '../helpers/services/postgres';
import { usePostgresTestApp } from '../helpers/services/postgres-test-app';
import { requireService } from '../helpers/services/require-service';
import { type TestApp, usePgliteTestApp } from '../helpers/test-app';
import { seedTools } from '../helpers/live-tools';

const describePg = requireService('PostgreSQL', findPostgresBinaries() !== null);

/** Categories whose kept count differs from a recount of live tools (none when the trigger did its job). */
const countDrift = (db: Db) =>
  queryRows<{ slug: string; kept: number; counted: number }>(
    db,
    sql`SELECT c.slug, c.live_tools AS kept, (SELECT count(*) FROM site_categories sc JOIN sites s ON s.id = sc.site_id
          WHERE sc.category_slug = c.slug AND s.status = 'live')::int AS counted
        FROM categories c WHERE c.live_tools <> (SELECT count(*) FROM site_categories sc JOIN sites s ON s.id = sc.site_id
          WHERE sc.category_slug = c.slug AND s.status = 'live')`,
  );

const liveTools = async (db: Db, slug: string) =>
  Number((await queryRows<{ n: number }>(db, sql`SELECT live_tools AS n FROM categories WHERE slug = ${slug}`))[0]?.n);

const version = async (db: Db) =>
  Number((await queryRows<{ v: string }>(db, sql`SELECT version AS v FROM listing_version`))[0]?.v);

function listingSuite(getApp: () => TestApp) {
  it('live_tools follows tools going live, changing categories, taken down and deleted', async () => {
    const db = getApp().deps.db;
    await queryRows(
      db,
      sql`INSERT INTO categories (slug, name) VALUES ('counted-a', 'Counted A'), ('counted-b', 'Counted B')`,
    );
    const [a, b, c] = await seedTools(db, [
      { name: 'Count One', categories: ['counted-a', 'counted-b'] },
      { name: 'Count Two', categories: ['counted-a'] },
      { name: 'Count Queued', status: 'queued', categories: ['counted-a'] },
    ]);
    expect([await liveTools(db, 'counted-a'), await liveTools(db, 'counted-b')]).toEqual([2, 1]);

    await queryRows(db, sql`UPDATE sites SET status = 'live' WHERE id = ${c!.id}`);
    await queryRows(db, sql`UPDATE sites SET status = 'rejected' WHERE id = ${a!.id}`);
    expect([await liveTools(db, 'counted-a'), await liveTools(db, 'counted-b')]).toEqual([2, 0]);

    // Review replaces a tool's categories (DELETE + INSERT of site_categories): the counts move with them.
    await queryRows(db, sql`DELETE FROM site_categories WHERE site_id = ${b!.id}`);
    await queryRows(db, sql`INSERT INTO site_categories (site_id, category_slug) VALUES (${b!.id}, 'counted-b')`);
    expect([await liveTools(db, 'counted-a'), await liveTools(db, 'counted-b')]).toEqual([1, 1]);

    await queryRows(db, sql`DELETE FROM sites WHERE id IN (${b!.id}, ${c!.id})`);
    expect([await liveTools(db, 'counted-a'), await liveTools(db, 'counted-b')]).toEqual([0, 0]);
    expect(await countDrift(db)).toEqual([]);
  });

  it('the listing version grows with every change the pages show, and only then', async () => {
    const db = getApp().deps.db;
    let before = await version(db);
    const changed = async (what: string, statement: ReturnType<typeof sql>) => {
      await queryRows(db, statement);
      const after = await version(db);
      expect(after, what).toBeGreaterThan(before);
      before = after;
    };
    const unchanged = async (what: string, statement: ReturnType<typeof sql>) => {
      await queryRows(db, statement);
      expect(await version(db), what).toBe(before);
    };
    const [live, queued] = await seedTools(db, [
      { name: 'Versioned Live' },
      { name: 'Versioned Queued', status: 'queued' },
    ]);
    expect(await version(db)).toBeGreaterThan(before);
    before = await version(db);

    await unchanged(
      'a tool that is not live moves on',
      sql`UPDATE sites SET status = 'crawling' WHERE id = ${queued!.id}`,
    );
    await unchanged('an update that changes nothing', sql`UPDATE sites SET plan = plan WHERE id = ${live!.id}`);
    await changed('a live tool renamed', sql`UPDATE sites SET name = 'Versioned Renamed' WHERE id = ${live!.id}`);
    await changed(
      'a live tool gets its image',
      sql`UPDATE sites SET metadata = metadata || '{"image":"x.png"}' WHERE id = ${live!.id}`,
    );
    await changed('a live tool becomes a sponsor', sql`UPDATE sites SET is_sponsor = true WHERE id = ${live!.id}`);
    await changed('a tool goes live', sql`UPDATE sites SET status = 'live' WHERE id = ${queued!.id}`);
    await changed(
      'a live tool changes category',
      sql`INSERT INTO site_categories (site_id, category_slug) VALUES (${live!.id}, 'code')`,
    );
    await changed('a category renamed', sql`UPDATE categories SET name = 'Code and more' WHERE slug = 'code'`);
    await changed(
      'a category added',
      sql`INSERT INTO categories (slug, name) VALUES ('versioned-new', 'Versioned New')`,
    );
    await changed('a category deleted', sql`DELETE FROM categories WHERE slug = 'versioned-new'`);
    await changed('a live tool taken down', sql`UPDATE sites SET status = 'rejected' WHERE id = ${live!.id}`);
    await unchanged('the taken-down tool edited', sql`UPDATE sites SET name = 'Versioned Gone' WHERE id = ${live!.id}`);
    await changed('a live tool deleted', sql`DELETE FROM sites WHERE id = ${queued!.id}`);
  });
}

describe('listing structures on PGlite', () => {
  const pglite = usePgliteTestApp();
  listingSuite(() => pglite.t);
});

describePg('listing structures on a real PostgreSQL server', () => {
  const pg = usePostgresTestApp();
  listingSuite(() => pg.t);

  it('20 writers at once in overlapping categories leave exact counts, one version bump each, and no deadlock', async () => {
    const db = pg.t.deps.db;
    const categories = ['writing', 'code', 'image', 'audio'];
    const tools = await seedTools(
      db,
      Array.from({ length: 20 }, (_, i) => ({
        name: `Racing Lister ${i}`,
        status: 'queued' as const,
        categories: [categories[i % 4]!, categories[(i + 1) % 4]!],
      })),
    );
    const before = await version(db);
    await Promise.all(
      tools.map((tool, i) =>
        i % 2 === 0
          ? queryRows(db, sql`UPDATE sites SET status = 'live' WHERE id = ${tool.id}`)
          : queryRows(db, sql`UPDATE sites SET status = 'live' WHERE id = ${tool.id}`).then(() =>
              queryRows(db, sql`UPDATE sites SET status = 'rejected' WHERE id = ${tool.id}`),
            ),
      ),
    );
    expect(await countDrift(db)).toEqual([]);
    expect(await version(db)).toBe(before + 30); // 20 tools live, 10 of them taken down again: 30 statements
  });
});
