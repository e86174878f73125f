// The structures search reads but no verb writes (drizzle/0025_search_derived_columns.sql): search_words, the
// words of live tools' names with a count each, and sites.category_slugs, a copy of site_categories. Triggers keep
// both; these tests change sites and categories every way the service does and compare each structure with what
// it should be, recomputed from scratch, on PGlite and with racing writers on a real PostgreSQL server.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Db } from '../../src/db/client';
import { findPostgresBinaries } from '../helpers/services/postgres';
import { usePostgresTestApp } from '../helpers/services/postgres-test-app';
import { requireService } from '../helpers/services/require-service';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { seedTools } from '../helpers/live-tools';

const describePg = requireService('PostgreSQL', findPostgresBinaries() !== null);

/** The vocabulary as the trigger keeps it, and as it should be: the words of every live name, counted. */
async function vocabulary(db: Db) {
  const kept = await queryRows<{ word: string; tools: number }>(
    db,
    sql`SELECT word, tools FROM search_words ORDER BY word`,
  );
  const expected = await queryRows<{ word: string; tools: number }>(
    db,
    sql`SELECT w AS word, count(*)::int AS tools FROM sites s, search_name_words(s.name) AS w WHERE s.status = 'live' GROUP BY w ORDER BY w`,
  );
  return { kept, expected };
}

/** Sites whose category_slugs differ from their site_categories rows (none when the trigger did its job). */
const categoryDrift = (db: Db) =>
  queryRows<{ id: string }>(
    db,
    sql`SELECT s.id FROM sites s WHERE s.category_slugs IS DISTINCT FROM
      coalesce((SELECT array_agg(sc.category_slug ORDER BY sc.category_slug) FROM site_categories sc WHERE sc.site_id = s.id), '{}')`,
  );

function derivedSuite(getApp: () => TestApp) {
  it('search_words follows tools going live, renamed, taken down and deleted; words are lower-case, 3+ characters, not numbers', async () => {
    const db = getApp().deps.db;
    const [a, b, c] = await seedTools(db, [
      { name: 'Zorblax Writer 2000' },
      { name: 'zorblax helper' },
      { name: 'Queued Quibbler', status: 'queued' },
    ]);
    let v = await vocabulary(db);
    expect(v.kept).toEqual(v.expected);
    expect(v.kept.find((w) => w.word === 'zorblax')?.tools).toBe(2);
    expect(v.kept.find((w) => w.word === '2000')).toBeUndefined();
    expect(v.kept.find((w) => w.word === 'quibbler')).toBeUndefined(); // not live

    await queryRows(db, sql`UPDATE sites SET name = 'Zorblax Renamed' WHERE id = ${a!.id}`);
    await queryRows(db, sql`UPDATE sites SET status = 'rejected' WHERE id = ${b!.id}`);
    await queryRows(db, sql`UPDATE sites SET status = 'live' WHERE id = ${c!.id}`);
    await queryRows(db, sql`UPDATE sites SET plan = plan WHERE id IN (${a!.id}, ${c!.id})`); // changes no name: no-op
    v = await vocabulary(db);
    expect(v.kept).toEqual(v.expected);
    expect(v.kept.find((w) => w.word === 'zorblax')?.tools).toBe(1);
    expect(v.kept.find((w) => w.word === 'helper')).toBeUndefined(); // its only tool was taken down
    expect(v.kept.find((w) => w.word === 'quibbler')?.tools).toBe(1);

    await queryRows(db, sql`DELETE FROM sites WHERE id IN (${a!.id}, ${c!.id})`);
    v = await vocabulary(db);
    expect(v.kept).toEqual(v.expected);
    expect(v.kept.find((w) => w.word === 'zorblax' || w.word === 'quibbler')).toBeUndefined();
  });

  it('the typo fallback finds a renamed tool by its new name and no longer by its old one', async () => {
    const t = getApp();
    const [tool] = await seedTools(t.deps.db, [{ name: 'Frobnicator' }]);
    const names = async (q: string) =>
      (
        (await (
          await t.request(`/api/v1/tools?q=${q}`, {
            headers: { 'cf-connecting-ip': `10.19.0.${Math.floor(Math.random() * 250)}` },
          })
        ).json()) as { tools: Array<{ name: string }> }
      ).tools.map((x) => x.name);
    expect(await names('frobnicatr')).toEqual(['Frobnicator']);
    await queryRows(t.deps.db, sql`UPDATE sites SET name = 'Grindlewick' WHERE id = ${tool!.id}`);
    expect(await names('grindlewik')).toEqual(['Grindlewick']);
    expect(await names('frobnicatr')).toEqual([]);
  });

  it('category_slugs follows site_categories through inserts and deletes; site_categories rows cannot be updated', async () => {
    const db = getApp().deps.db;
    const [tool] = await seedTools(db, [{ name: 'Category Follower', categories: ['writing', 'code'] }]);
    const slugs = async () =>
      (
        await queryRows<{ category_slugs: string[] }>(db, sql`SELECT category_slugs FROM sites WHERE id = ${tool!.id}`)
      )[0]!.category_slugs;
    expect(await slugs()).toEqual(['code', 'writing']);
    await queryRows(db, sql`DELETE FROM site_categories WHERE site_id = ${tool!.id} AND category_slug = 'code'`);
    await queryRows(db, sql`INSERT INTO site_categories (site_id, category_slug) VALUES (${tool!.id}, 'audio')`);
    expect(await slugs()).toEqual(['audio', 'writing']);
    await expect(
      queryRows(db, sql`UPDATE site_categories SET category_slug = 'video' WHERE site_id = ${tool!.id}`),
    ).rejects.toThrow();
    expect(await slugs()).toEqual(['audio', 'writing']);
    expect(await categoryDrift(db)).toEqual([]);
  });
}

describe('search derived structures on PGlite', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  derivedSuite(() => t);
});

describePg('search derived structures on a real PostgreSQL server', () => {
  const pg = usePostgresTestApp();
  derivedSuite(() => pg.t);

  it('20 writers at once (tools going live, renamed, taken down, sharing words) leave exact counts and no deadlock', async () => {
    const db = pg.t.deps.db;
    const tools = await seedTools(
      db,
      Array.from({ length: 20 }, (_, i) => ({ name: `Racer Shared Word ${i}`, status: 'queued' as const })),
    );
    await Promise.all(
      tools.map((tool, i) =>
        i % 3 === 0
          ? queryRows(db, sql`UPDATE sites SET status = 'live' WHERE id = ${tool.id}`)
          : i % 3 === 1
            ? queryRows(
                db,
                sql`UPDATE sites SET status = 'live', name = ${`Racer Other Word ${i}`} WHERE id = ${tool.id}`,
              )
            : queryRows(db, sql`UPDATE sites SET status = 'live' WHERE id = ${tool.id}`).then(() =>
                queryRows(db, sql`UPDATE sites SET status = 'rejected' WHERE id = ${tool.id}`),
              ),
      ),
    );
    const v = await vocabulary(db);
    expect(v.kept).toEqual(v.expected);
    expect(v.kept.find((w) => w.word === 'racer')?.tools).toBe(14); // 7 + 7 live, 6 taken down
  });
});
