// Self-test of the Neon stand-in: drizzle's neon-http driver and the WebSocket Pool against real PostgreSQL.
import { neon, NeonDbError, Pool } from '@neondatabase/serverless';
import { eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/neon-http';
import { boolean, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { findPostgresBinaries, type PostgresServer, startPostgres } from '../../helpers/services/postgres';
import { requireService } from '../../helpers/services/require-service';
import { configureNeonClient, type NeonStandIn, startNeonStandIn } from '../../helpers/standins/neon-http';

const items = pgTable('items', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull().unique(),
  count: integer('count'),
  active: boolean('active'),
  data: jsonb('data'),
  tags: text('tags').array(),
  at: timestamp('at', { withTimezone: true }),
  note: text('note'),
});
const moves = pgTable('moves', { itemId: uuid('item_id').notNull(), note: text('note').notNull() });

const describePg = requireService('PostgreSQL', findPostgresBinaries() !== null);

describePg('Neon stand-in', () => {
  let server: PostgresServer;
  let standIn: NeonStandIn;
  let db: ReturnType<typeof drizzle>;

  beforeAll(async () => {
    server = await startPostgres();
    standIn = await startNeonStandIn();
    configureNeonClient(standIn);
    const setup = new pg.Client({ connectionString: server.connectionString });
    await setup.connect();
    await setup.query(`create table items (id uuid primary key default gen_random_uuid(), name text not null unique,
      count int, active bool, data jsonb, tags text[], at timestamptz, note text);
      create table moves (item_id uuid not null, note text not null)`);
    await setup.end();
    db = drizzle({ client: neon(server.connectionString) });
  });
  afterAll(async () => {
    await standIn?.close();
    await server?.close();
  });

  it('selects timestamptz, uuid, int, bool, jsonb, text[] and null through drizzle neon-http', async () => {
    const at = new Date('2026-01-02T03:04:05.678Z');
    await db
      .insert(items)
      .values({ name: 'types', count: 7, active: true, data: { a: [1, 'x'] }, tags: ['a', 'b,c'], at });
    const [row] = await db.select().from(items).where(eq(items.name, 'types'));
    expect(row).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'types',
      count: 7,
      active: true,
      data: { a: [1, 'x'] },
      tags: ['a', 'b,c'],
      at,
      note: null,
    });
  });

  it('answers raw PostgreSQL text with field metadata (what the Neon client parses)', async () => {
    const response = await fetch(standIn.fetchEndpoint, {
      method: 'POST',
      headers: {
        'Neon-Connection-String': server.connectionString,
        'Neon-Raw-Text-Output': 'true',
        'Neon-Array-Mode': 'true',
      },
      body: JSON.stringify({
        query: `select $1::int + 1 as n, true as b, '2026-01-02 03:04:05+00'::timestamptz as t, null::text as z`,
        params: ['41'],
      }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      rows: unknown[];
      fields: { name: string; dataTypeID: number }[];
      command: string;
      rowCount: number;
    };
    expect(body.rows).toEqual([['42', 't', '2026-01-02 03:04:05+00', null]]);
    expect(body.fields.map((f) => [f.name, f.dataTypeID])).toEqual([
      ['n', 23],
      ['b', 16],
      ['t', 1184],
      ['z', 25],
    ]);
    expect(body).toMatchObject({ command: 'SELECT', rowCount: 1, rowAsArray: true });
  });

  it('returns inserted rows and runs a data-modifying CTE as one statement', async () => {
    const [inserted] = await db.insert(items).values({ name: 'cte' }).returning({ id: items.id, name: items.name });
    expect(inserted?.name).toBe('cte');
    const result = await db.execute(sql`with touched as (
        update ${items} set note = 'moved' where name = 'cte' returning id)
      insert into ${moves} (item_id, note) select id, 'cte' from touched returning item_id`);
    expect(result.rows).toEqual([{ item_id: inserted?.id }]);
    const [after] = await db.select({ note: items.note }).from(items).where(eq(items.name, 'cte'));
    expect(after?.note).toBe('moved');
  });

  it('db.batch is one transaction: a failing second statement rolls back the first', async () => {
    await db.insert(items).values({ name: 'taken' });
    await expect(
      db.batch([db.insert(items).values({ name: 'batch-first' }), db.insert(items).values({ name: 'taken' })]),
    ).rejects.toThrow();
    expect(await db.select().from(items).where(eq(items.name, 'batch-first'))).toEqual([]);
    const [a, b] = await db.batch([
      db.insert(items).values({ name: 'batch-ok' }).returning({ name: items.name }),
      db.select({ name: items.name }).from(items).where(eq(items.name, 'batch-ok')),
    ]);
    expect(a).toEqual([{ name: 'batch-ok' }]);
    expect(b).toEqual([{ name: 'batch-ok' }]); // the second statement sees the first: same transaction
  });

  it('exposes the PostgreSQL error code: drizzle wraps the NeonDbError in error.cause', async () => {
    await db.insert(items).values({ name: 'unique-once' });
    const error = await db
      .insert(items)
      .values({ name: 'unique-once' })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(Error);
    const cause = (error as Error).cause;
    expect(cause).toBeInstanceOf(NeonDbError);
    expect(cause).toMatchObject({ code: '23505', constraint: 'items_name_key', table: 'items' });
  });

  it('honours the batch isolation, read-only and deferrable headers', async () => {
    const q = neon(server.connectionString);
    const [settings] = await q.transaction(
      [
        q`select current_setting('transaction_isolation') as iso, current_setting('transaction_read_only') as ro,
          current_setting('transaction_deferrable') as def`,
      ],
      { isolationLevel: 'Serializable', readOnly: true, deferrable: true },
    );
    expect(settings).toEqual([{ iso: 'serializable', ro: 'on', def: 'on' }]);
    const readOnlyWrite = q.transaction([q`insert into items (name) values ('ro')`], { readOnly: true });
    await expect(readOnlyWrite).rejects.toMatchObject({ code: '25006' });
  });

  it('refuses a connection string that is not on loopback without connecting anywhere', async () => {
    const response = await fetch(standIn.fetchEndpoint, {
      method: 'POST',
      headers: { 'Neon-Connection-String': 'postgresql://u@10.1.2.3:5432/db' },
      body: JSON.stringify({ query: 'select 1', params: [] }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: 'stand-in refuses non-loopback host 10.1.2.3' });
  });

  it('answers 503 while PostgreSQL is down and serves again right after it restarts', async () => {
    const q = neon(server.connectionString);
    expect(await q`select 1 as one`).toEqual([{ one: 1 }]); // leaves an idle pooled connection behind
    await server.stop();
    const down = await q`select 1 as one`.then(
      () => null,
      (e: unknown) => e,
    );
    expect(down).toBeInstanceOf(NeonDbError);
    expect((down as NeonDbError).message).toMatch(/HTTP status 503/);
    expect((down as NeonDbError).code).toBeUndefined();
    await server.start();
    expect(await q`select 1 as one`).toEqual([{ one: 1 }]);
  });

  it('serves the WebSocket Pool through the ws proxy, with real transactions', async () => {
    const pool = new Pool({ connectionString: server.connectionString });
    try {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query(`insert into items (name) values ('ws-rolled-back')`);
        await client.query('ROLLBACK');
        await client.query('BEGIN');
        const inserted = await client.query<{ name: string }>(
          `insert into items (name) values ('ws-committed') returning name`,
        );
        expect(inserted.rows).toEqual([{ name: 'ws-committed' }]);
        await client.query('COMMIT');
      } finally {
        client.release();
      }
      const names = await pool.query<{ name: string }>(`select name from items where name like 'ws-%' order by name`);
      expect(names.rows).toEqual([{ name: 'ws-committed' }]);
    } finally {
      await pool.end();
    }
  });
});
