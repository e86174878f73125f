// The node-postgres pool names each statement by its text, so every pooled connection parses and plans it
// once (src/db/node-statement-cache.ts). Checked on a real PostgreSQL in the server's own catalogue.
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client';
import type { Db } from '../../src/db/client';
import { prepareStatementsByText } from '../../src/db/node-statement-cache';
import { findPostgresBinaries, type PostgresServer, startPostgres } from '../helpers/services/postgres';
import { requireService } from '../helpers/services/require-service';

const describePg = requireService('PostgreSQL', findPostgresBinaries() !== null);

describePg('prepared statements by text on node-postgres', () => {
  let server: PostgresServer;
  let pool: pg.Pool;
  let db: Db;
  beforeAll(async () => {
    server = await startPostgres({ database: 'tooldir_prepared' });
    pool = new pg.Pool({ connectionString: server.connectionString, max: 1 }); // one connection: one catalogue to read
    prepareStatementsByText(pool);
    db = drizzle(pool) as unknown as Db;
  });
  afterAll(async () => {
    await pool?.end();
    await server?.close();
  });

  const prepared = () =>
    pool.query<{ name: string; statement: string }>('SELECT name, statement FROM pg_prepared_statements ORDER BY name');

  it('prepares a parameterised drizzle statement once and reuses it with new values', async () => {
    const add = (a: number, b: number) => queryRows<{ sum: number }>(db, sql`SELECT (${a}::int + ${b}::int) AS sum`);
    expect(await add(1, 2)).toEqual([{ sum: 3 }]);
    expect(await add(40, 2)).toEqual([{ sum: 42 }]);
    const statements = (await prepared()).rows.filter((r) => r.statement.includes('::int +'));
    expect(statements).toHaveLength(1);
    expect(statements[0]!.name).toMatch(/^td_[0-9a-f]{24}$/);
  });

  it('gives different texts different names, and leaves plain strings and named queries alone', async () => {
    await queryRows(db, sql`SELECT ${'a'}::text AS one`);
    await queryRows(db, sql`SELECT ${'b'}::text AS two`);
    await pool.query('SELECT 1 AS plain');
    await pool.query({ name: 'caller_named', text: 'SELECT $1::int AS n', values: [7] });
    const rows = (await prepared()).rows;
    const names = rows.filter((r) => /AS (one|two)$/.test(r.statement)).map((r) => r.name);
    expect(new Set(names).size).toBe(2);
    expect(rows.some((r) => r.statement === 'SELECT 1 AS plain')).toBe(false);
    expect(rows.find((r) => r.statement === 'SELECT $1::int AS n')?.name).toBe('caller_named');
  });
});
