// The seed of new PGlite databases (src/db/pglite-seed.ts): the first new database made the slow way (initdb and
// the baseline) leaves it; the next new one is loaded from it and is the same database; a damaged seed is
// thrown away and the database made anew. The seed folder is a temp dir here, never dist/.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite, type OpenedDb } from '../../../src/db/node-clients';
import { seedPath } from '../../../src/db/pglite-seed';
import { PGLITE_EXTENSIONS } from '../../../src/db/node-clients';
import { queryRows } from '../../../src/db/client';
import { schemaDump } from '../../helpers/schema-dump';

const root = mkdtempSync(join(tmpdir(), 'tooldir-seed-'));
const seedFolder = join(root, 'seeds');
afterAll(() => rmSync(root, { recursive: true, force: true }));

const dump = (opened: OpenedDb) => schemaDump((text) => queryRows<Record<string, unknown>>(opened.db, sql.raw(text)));

describe('the seed of new PGlite databases', () => {
  let first: Awaited<ReturnType<typeof dump>>;

  it('is left by the first new database, made the slow way', async () => {
    expect(existsSync(seedFolder)).toBe(false);
    const opened = await openPglite(join(root, 'a'), { seedFolder });
    try {
      first = await dump(opened);
    } finally {
      await opened.close();
    }
    expect(readdirSync(seedFolder)).toEqual([seedPath(Object.keys(PGLITE_EXTENSIONS), seedFolder)!.split('/').at(-1)]);
  }, 180_000);

  it('reopens an existing folder with the small shared memory a restart needs (16 MB of buffers, not 128 MB)', async () => {
    const opened = await openPglite(join(root, 'a'), { seedFolder });
    try {
      expect(await queryRows(opened.db, sql`SELECT current_setting('shared_buffers') AS buffers`)).toEqual([
        { buffers: '16MB' },
      ]);
    } finally {
      await opened.close();
    }
  }, 180_000);

  it('gives the next new database the same schema, ready to use', async () => {
    const opened = await openPglite(join(root, 'b'), { seedFolder });
    try {
      expect(await dump(opened)).toEqual(first);
      await queryRows(opened.db, sql`INSERT INTO accounts (email) VALUES ('seed@example.com')`);
      expect(await queryRows(opened.db, sql`SELECT email FROM accounts`)).toEqual([{ email: 'seed@example.com' }]);
    } finally {
      await opened.close();
    }
    // Another new database does not see b's rows: the seed is the empty database, not b.
    const again = await openPglite('memory://', { seedFolder });
    try {
      expect(await queryRows(again.db, sql`SELECT email FROM accounts`)).toEqual([]);
    } finally {
      await again.close();
    }
  }, 180_000);

  it('is thrown away when damaged, and the database is made anew', async () => {
    const path = seedPath(Object.keys(PGLITE_EXTENSIONS), seedFolder)!;
    writeFileSync(path, 'not a tarball');
    const opened = await openPglite(join(root, 'c'), { seedFolder });
    try {
      expect(await dump(opened)).toEqual(first);
    } finally {
      await opened.close();
    }
    expect(readFileSync(path).length).toBeGreaterThan(100_000); // a fresh seed replaced the damaged one
  }, 180_000);
});
