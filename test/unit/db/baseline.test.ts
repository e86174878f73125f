// The squashed baseline (drizzle/baseline/, `npm run db:baseline`) is the migrations, read off the catalog: a
// new database laid from it has the same schema, reference rows and drizzle journal as one that applied every
// migration one by one; a migration added after it still applies on top; a stale baseline is never used.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGLITE_EXTENSIONS } from '../../../src/db/node-clients';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  applyBaselineToNewDatabase,
  journalTags,
  migrationsFolder,
  usableBaseline,
  type RawSession,
} from '../../../src/db/baseline';
import { dataDump, schemaDump, type Rows } from '../../helpers/schema-dump';

const open = () => PGlite.create('memory://', { extensions: PGLITE_EXTENSIONS });
const session = (client: PGlite): RawSession => ({
  query: async (text) => (await client.exec(text)).at(-1)?.rows as never,
});
const rowsOf =
  (client: PGlite): Rows =>
  async (text) =>
    (await client.query<Record<string, unknown>>(text)).rows;

async function describeDatabase(client: PGlite) {
  return { schema: await schemaDump(rowsOf(client)), data: await dataDump(rowsOf(client)) };
}

/** A copy of drizzle/ with one more migration after the baseline, journalled as drizzle-kit would. */
function folderWithLaterMigration(): string {
  const folder = mkdtempSync(join(tmpdir(), 'tooldir-baseline-'));
  cpSync(migrationsFolder, folder, { recursive: true });
  const journalPath = join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as {
    entries: { idx: number; when: number; tag: string; version: string; breakpoints: boolean }[];
  };
  const last = journal.entries.at(-1)!;
  const tag = `${String(last.idx + 1).padStart(4, '0')}_after_baseline`;
  journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1000, tag });
  writeFileSync(journalPath, JSON.stringify(journal, null, 2));
  writeFileSync(
    join(folder, `${tag}.sql`),
    `CREATE TABLE "after_baseline" ("id" integer PRIMARY KEY, "site_id" uuid REFERENCES "sites"("id"));\n--> statement-breakpoint\nALTER TABLE "sites" ADD COLUMN "after_baseline_note" text;`,
  );
  return folder;
}

describe('the squashed baseline', () => {
  let incremental: PGlite;
  let squashed: PGlite;

  beforeAll(async () => {
    [incremental, squashed] = await Promise.all([open(), open()]);
    await migrate(drizzle(incremental), { migrationsFolder });
    expect(await applyBaselineToNewDatabase(session(squashed))).toBe('applied');
    await migrate(drizzle(squashed), { migrationsFolder }); // nothing left to apply on this branch's baseline
  }, 240_000);
  afterAll(async () => {
    await incremental?.close();
    await squashed?.close();
  });

  it('stands for the first migrations of the journal, file by file', () => {
    const baseline = usableBaseline();
    expect(baseline, 'drizzle/baseline is stale or missing: run npm run db:baseline').toBeDefined();
    expect(baseline!.covers.map((c) => c.tag)).toEqual(journalTags().slice(0, baseline!.covers.length));
  });

  it('gives the schema, the seeded rows and the journal of every migration applied one by one', async () => {
    const [a, b] = await Promise.all([describeDatabase(incremental), describeDatabase(squashed)]);
    for (const kind of Object.keys(a.schema)) expect(b.schema[kind], kind).toEqual(a.schema[kind]);
    expect(Object.keys(a.schema.columns!).length).toBeGreaterThan(100); // the dump reads something
    expect(b.data).toEqual(a.data);
    expect(a.data['public.categories']?.length).toBeGreaterThan(0); // reference rows a migration seeds are compared
    expect(a.data['drizzle.__drizzle_migrations']).toHaveLength(journalTags().length);
  });

  it('is laid on a new database only: a used one is left to the migrator', async () => {
    expect(await applyBaselineToNewDatabase(session(squashed))).toBe('not_new');
    const client = await open();
    try {
      await client.exec('CREATE TABLE public.someone_elses (id int)');
      expect(await applyBaselineToNewDatabase(session(client))).toBe('not_new');
      expect((await client.query(`SELECT to_regclass('public.sites') AS t`)).rows).toEqual([{ t: null }]);
    } finally {
      await client.close();
    }
  });

  it('lets a migration added after it apply on top, as it applies on a database that took every migration', async () => {
    const folder = folderWithLaterMigration();
    const [fromBaseline, oneByOne] = await Promise.all([open(), open()]);
    try {
      expect(await applyBaselineToNewDatabase(session(fromBaseline), folder)).toBe('applied');
      await migrate(drizzle(fromBaseline), { migrationsFolder: folder });
      await migrate(drizzle(oneByOne), { migrationsFolder: folder });
      const [a, b] = await Promise.all([describeDatabase(oneByOne), describeDatabase(fromBaseline)]);
      expect(b).toEqual(a);
      expect(a.schema.columns!.some((c) => (c as { attname: string }).attname === 'after_baseline_note')).toBe(true);
      expect(b.data['drizzle.__drizzle_migrations']).toHaveLength(journalTags().length + 1);
    } finally {
      await Promise.all([fromBaseline.close(), oneByOne.close()]);
      rmSync(folder, { recursive: true, force: true });
    }
  }, 240_000);

  it('is not used once a migration it covers has changed: every migration then runs one by one', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'tooldir-baseline-'));
    cpSync(migrationsFolder, folder, { recursive: true });
    const first = journalTags(folder)[1]!;
    writeFileSync(
      join(folder, `${first}.sql`),
      `${readFileSync(join(folder, `${first}.sql`), 'utf8')}\n-- edited after release\n`,
    );
    const client = await open();
    try {
      expect(usableBaseline(folder)).toBeUndefined();
      expect(await applyBaselineToNewDatabase(session(client), folder)).toBe('stale');
      expect((await client.query(`SELECT to_regclass('public.sites') AS t`)).rows).toEqual([{ t: null }]);
    } finally {
      await client.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
