// The structures search reads but no verb writes: search_vocabulary, the words of live tools' names and descriptions
// with a count each, and the strings left of each word once letters are removed (search_vocabulary_deletions, what a
// typo is looked up by: drizzle/0049_search_typo_deletions.sql), and search_lexemes, the live tools holding each lexeme
// (drizzle/0034_search_meaning.sql); and
// sites.category_slugs, a copy of site_categories (drizzle/0025_search_derived_columns.sql). Triggers keep them; these
// tests change sites and categories every way the service does and compare each structure with what it should be,
// recomputed from scratch, on PGlite and with racing writers on a real PostgreSQL server.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows, type Db } from '../../src/db/client';
import { findPostgresBinaries } from '../helpers/services/postgres';
import { usePostgresTestApp } from '../helpers/services/postgres-test-app';
import { requireService } from '../helpers/services/require-service';
import { type TestApp, usePgliteTestApp } from '../helpers/test-app';
import { seedTools } from '../helpers/live-tools';

const describePg = requireService('PostgreSQL', findPostgresBinaries() !== null);

/**
 * The strings a vocabulary word is kept under for typo lookups, computed here the plain way: the word, each string
 * left by removing one letter and, for words of 8 to 14 letters, two; none shorter than 3 letters.
 */
function deletionKeys(word: string): string[] {
  const length = [...word].length;
  const most = length >= 8 && length <= 14 ? 2 : 1;
  const keys = new Set<string>([word]);
  let level = [word];
  for (let removed = 1; removed <= most; removed++) {
    // By characters, as PostgreSQL's overlay counts them.
    level = level.flatMap((w) => [...w].map((_, i, chars) => chars.toSpliced(i, 1).join('')));
    for (const key of level) if ([...key].length >= 3) keys.add(key);
  }
  return [...keys];
}
const byCodePoints = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The vocabulary and the lexeme counts as the triggers keep them, and as they should be, recomputed from every live tool. */
async function vocabulary(db: Db) {
  const kept = await queryRows<{ word: string; tools: number }>(
    db,
    sql`SELECT word, tools FROM search_vocabulary ORDER BY word`,
  );
  const expected = await queryRows<{ word: string; tools: number }>(
    db,
    sql`SELECT w AS word, count(*)::int AS tools FROM sites s, search_text_words(s.name, s.metadata->>'description') AS w
        WHERE s.status = 'live' GROUP BY w ORDER BY w`,
  );
  const lexemes = await queryRows<{ lexeme: string; tools: number; name_tools: number }>(
    db,
    sql`SELECT lexeme, tools, name_tools FROM search_lexemes ORDER BY lexeme COLLATE "C"`,
  );
  const expectedLexemes = await queryRows<{ lexeme: string; tools: number; name_tools: number }>(
    db,
    sql`SELECT l AS lexeme, sum(t)::int AS tools, sum(n)::int AS name_tools FROM (
          SELECT unnest(tsvector_to_array(s.search_vector)) AS l, 1 AS t, 0 AS n FROM sites s WHERE s.status = 'live'
          UNION ALL SELECT unnest(tsvector_to_array(s.name_vector)), 0, 1 FROM sites s WHERE s.status = 'live'
          UNION ALL SELECT '', 1, 1 FROM sites s WHERE s.status = 'live'
        ) x GROUP BY l ORDER BY l COLLATE "C"`,
  );
  const deletions = await queryRows<{ deletion: string; word: string }>(
    db,
    sql`SELECT deletion, word FROM search_vocabulary_deletions ORDER BY word COLLATE "C", deletion COLLATE "C"`,
  );
  const expectedDeletions = expected
    .map((w) => w.word)
    .sort(byCodePoints)
    .flatMap((word) =>
      deletionKeys(word)
        .sort(byCodePoints)
        .map((deletion) => ({ deletion, word })),
    );
  // The all-tools row stays at zero; no other row does.
  return {
    kept,
    expected,
    lexemes: lexemes.filter((l) => l.lexeme !== '' || l.tools > 0),
    expectedLexemes,
    deletions,
    expectedDeletions,
  };
}

/** Sites whose category_slugs differ from their site_categories rows (none when the trigger did its job). */
const categoryDrift = (db: Db) =>
  queryRows<{ id: string }>(
    db,
    sql`SELECT s.id FROM sites s WHERE s.category_slugs IS DISTINCT FROM
      coalesce((SELECT array_agg(sc.category_slug ORDER BY sc.category_slug) FROM site_categories sc WHERE sc.site_id = s.id), '{}')`,
  );

function derivedSuite(getApp: () => TestApp) {
  it('the vocabulary and the lexeme counts follow tools going live, renamed, re-described, recategorised, taken down and deleted', async () => {
    const db = getApp().deps.db;
    const [a, b, c] = await seedTools(db, [
      { name: 'Zorblax Writer 2000', description: 'Drafts the flumpering of notes.', categories: ['writing'] },
      { name: 'zorblax helper', description: 'Flumpering with the zorblax.' },
      { name: 'Queued Quibbler', status: 'queued', description: 'Quibbles.' },
    ]);
    let v = await vocabulary(db);
    expect(v.kept).toEqual(v.expected);
    expect(v.lexemes).toEqual(v.expectedLexemes);
    expect(v.deletions).toEqual(v.expectedDeletions);
    // flumpering (10 letters) is kept under two removals, helper (6) under one.
    expect(v.deletions).toContainEqual({ deletion: 'flmpring', word: 'flumpering' });
    expect(v.deletions).toContainEqual({ deletion: 'heper', word: 'helper' });
    expect(v.deletions.filter((d) => d.word === 'helper' && d.deletion.length === 4)).toEqual([]);
    expect(v.kept.find((w) => w.word === 'zorblax')?.tools).toBe(2);
    expect(v.kept.find((w) => w.word === 'flumpering')?.tools).toBe(2); // a description word counts too
    expect(v.kept.find((w) => w.word === '2000')).toBeUndefined(); // no letter
    expect(v.kept.find((w) => w.word === 'the' || w.word === 'with')).toBeUndefined(); // stop words
    expect(v.kept.find((w) => w.word === 'quibbler')).toBeUndefined(); // not live
    expect(v.lexemes.find((l) => l.lexeme === '#writing')?.tools).toBeGreaterThan(0);

    await queryRows(db, sql`UPDATE sites SET name = 'Zorblax Renamed' WHERE id = ${a!.id}`);
    await queryRows(
      db,
      sql`UPDATE sites SET metadata = jsonb_set(metadata, '{description}', '"Now about gadgetry."') WHERE id = ${a!.id}`,
    );
    await queryRows(db, sql`UPDATE sites SET status = 'rejected' WHERE id = ${b!.id}`);
    await queryRows(db, sql`UPDATE sites SET status = 'live' WHERE id = ${c!.id}`);
    await queryRows(db, sql`INSERT INTO site_categories (site_id, category_slug) VALUES (${c!.id}, 'writing')`);
    await queryRows(db, sql`UPDATE sites SET plan = plan WHERE id IN (${a!.id}, ${c!.id})`); // changes no text: no-op
    v = await vocabulary(db);
    expect(v.kept).toEqual(v.expected);
    expect(v.lexemes).toEqual(v.expectedLexemes);
    expect(v.deletions).toEqual(v.expectedDeletions);
    expect(v.kept.find((w) => w.word === 'zorblax')?.tools).toBe(1);
    expect(v.kept.find((w) => w.word === 'helper')).toBeUndefined(); // its only tool was taken down
    expect(v.kept.find((w) => w.word === 'flumpering')).toBeUndefined(); // re-described and taken down
    expect(v.kept.find((w) => w.word === 'gadgetry')?.tools).toBe(1);
    expect(v.kept.find((w) => w.word === 'quibbler')?.tools).toBe(1);

    await queryRows(db, sql`DELETE FROM sites WHERE id IN (${a!.id}, ${c!.id})`);
    v = await vocabulary(db);
    expect(v.kept).toEqual(v.expected);
    expect(v.lexemes).toEqual(v.expectedLexemes);
    expect(v.deletions).toEqual(v.expectedDeletions);
    expect(v.kept.find((w) => w.word === 'zorblax' || w.word === 'quibbler' || w.word === 'gadgetry')).toBeUndefined();
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
  const pglite = usePgliteTestApp();
  derivedSuite(() => pglite.t);
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
    expect(v.lexemes).toEqual(v.expectedLexemes);
    expect(v.deletions).toEqual(v.expectedDeletions);
    expect(v.kept.find((w) => w.word === 'racer')?.tools).toBe(14); // 7 + 7 live, 6 taken down
  });
});
