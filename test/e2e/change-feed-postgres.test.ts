// The change feed's ordering guarantee on a real PostgreSQL server (docs/change-feed.md "Order"): transactions that
// commit out of the order they wrote in, on separate connections, while a mirror polls GET /api/v1/changes. A feed
// ordered by a plain sequence would skip the change whose number was taken by the transaction that committed later;
// this one serves every change exactly once, and one listing's changes in the order they happened.
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client';
import { openNodePostgres, type OpenedDb } from '../../src/db/node-clients';
import { seedTools, type SeededTool } from '../helpers/live-tools';
import { findPostgresBinaries, startPostgres, type PostgresServer } from '../helpers/services/postgres';
import { requireService } from '../helpers/services/require-service';
import { createTestApp, type TestApp } from '../helpers/test-app';

const describePg = requireService('PostgreSQL', findPostgresBinaries() !== null);

interface Entry {
  cursor: string;
  kind: string;
  site_id: string;
}

describePg('the change feed with transactions committing out of order (node-postgres)', () => {
  let server: PostgresServer;
  let opened: OpenedDb;
  let t: TestApp;
  const clients: pg.Client[] = [];

  beforeAll(async () => {
    server = await startPostgres();
    opened = await openNodePostgres(server.connectionString, { max: 4 });
    t = await createTestApp({ db: opened });
  }, 120_000);
  // A failed test must not leave a transaction holding locks for the next one.
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.end()));
  });
  afterAll(async () => {
    await t?.close();
    await opened?.close();
    await server?.close();
  });

  /** A connection of its own, for one writer's transactions. */
  async function connection(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: server.connectionString });
    await client.connect();
    clients.push(client);
    return client;
  }

  let address = 0;
  async function poll(
    since: string,
    limit = 100,
  ): Promise<{ changes: Entry[]; next_cursor: string; has_more: boolean }> {
    const res = await t.request(`/api/v1/changes?since=${since}&limit=${limit}`, {
      headers: { 'cf-connecting-ip': `203.0.113.${++address % 250}` },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    return res.json();
  }

  /** A mirror: follows the feed from its cursor until nothing more is ready, keeping what it saw. */
  function mirror(start: string, limit = 100) {
    const seen: Entry[] = [];
    let cursor = start;
    return {
      seen,
      async catchUp() {
        for (;;) {
          const page = await poll(cursor, limit);
          seen.push(...page.changes);
          cursor = page.next_cursor;
          if (!page.has_more) return;
        }
      },
    };
  }

  const now = async () => (await poll('now')).next_cursor;
  const rename = (client: pg.Client, tool: SeededTool) =>
    client.query('UPDATE sites SET name = $1 WHERE id = $2', [
      `${tool.name} ${crypto.randomUUID().slice(0, 6)}`,
      tool.id,
    ]);

  /** Resolves once the backend `pid` waits on a lock. */
  async function waitingOnLock(pid: number): Promise<void> {
    for (let i = 0; i < 500; i++) {
      const [row] = await queryRows<{ w: string | null }>(
        opened.db,
        sql`SELECT wait_event_type AS w FROM pg_stat_activity WHERE pid = ${pid}`,
      );
      if (row?.w === 'Lock') return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`backend ${pid} never waited on a lock`);
  }

  it('a change numbered earlier but committed later is served after it commits, never skipped', async () => {
    const [one, two] = await seedTools(opened.db, [{ name: 'Numbered Later' }, { name: 'Numbered Earlier' }]);
    const a = await connection();
    const b = await connection();
    const bPid = Number((await b.query('SELECT pg_backend_pid() AS pid')).rows[0].pid);
    const m = mirror(await now());

    // a holds the listing version's row (any write the pages show takes it, to the end of the transaction) ...
    await a.query('BEGIN');
    await a.query(`UPDATE categories SET description = description || ' ' WHERE slug = 'writing'`);
    // ... so b's change takes its number, then waits for that row; a's change takes the next number and commits first.
    await b.query('BEGIN');
    const bWrites = rename(b, two!);
    await waitingOnLock(bPid);
    await rename(a, one!);
    await a.query('COMMIT');
    await bWrites;
    const bNumber = Number(
      (await b.query('SELECT max(id) AS id FROM listing_changes WHERE site_id = $1', [two!.id])).rows[0].id,
    );

    await m.catchUp();
    expect(m.seen.map((e) => e.site_id)).toEqual([one!.id]);
    // The hazard was real: the entry served has the higher number; a reader by number would now be past b's.
    expect(Number(m.seen[0]!.cursor.split('-')[1])).toBeGreaterThan(bNumber);
    await b.query('COMMIT');
    await m.catchUp();
    expect(m.seen.map((e) => e.site_id)).toEqual([one!.id, two!.id]);
  });

  it('a change committed while an older transaction still runs waits for it, then both are served once', async () => {
    const [one, two] = await seedTools(opened.db, [{ name: 'Began Second' }, { name: 'Began First' }]);
    const a = await connection();
    const b = await connection();
    const m = mirror(await now());

    await b.query('BEGIN');
    await b.query('SELECT pg_current_xact_id()'); // b is the older transaction
    await a.query('BEGIN');
    await rename(a, one!);
    await a.query('COMMIT');
    await m.catchUp();
    expect(m.seen).toEqual([]); // b could still write a change before a's position
    await rename(b, two!);
    await b.query('COMMIT');
    await m.catchUp();
    expect(m.seen.map((e) => e.site_id)).toEqual([two!.id, one!.id]);
    expect(new Set(m.seen.map((e) => e.cursor)).size).toBe(2);
  });

  it("one listing's changes keep the order they happened in, whichever transaction began first", async () => {
    const [tool] = await seedTools(opened.db, [{ name: 'Taken Down Then Back' }]);
    const a = await connection();
    const b = await connection();
    const m = mirror(await now());

    await b.query('BEGIN');
    await b.query('SELECT pg_current_xact_id()'); // began first
    await a.query('BEGIN');
    await a.query(`UPDATE sites SET status = 'rejected' WHERE id = $1`, [tool!.id]);
    await a.query('COMMIT'); // left
    await b.query(`UPDATE sites SET status = 'live' WHERE id = $1`, [tool!.id]);
    await b.query('COMMIT'); // then appeared again
    await m.catchUp();
    expect(m.seen.filter((e) => e.site_id === tool!.id).map((e) => e.kind)).toEqual(['left', 'appeared']);
  });

  it('many writers committing at random while a mirror polls with small pages: every change once, in order', async () => {
    const tools = await seedTools(
      opened.db,
      Array.from({ length: 6 }, (_, i) => ({ name: `Raced ${i}` })),
    );
    const writers = await Promise.all(tools.map(() => connection()));
    const start = await now();
    const m = mirror(start, 3);
    const pause = () => new Promise((resolve) => setTimeout(resolve, Math.random() * 15));
    let writing = true;
    // Each writer its own tool (one row lock each, so no deadlock between them): they still race for the listing
    // version's row between taking a change's number and committing it.
    const written = Promise.all(
      writers.map(async (client, w) => {
        for (let i = 0; i < 6; i++) {
          await client.query('BEGIN');
          if (Math.random() < 0.5) await client.query('SELECT pg_current_xact_id()');
          await pause();
          await rename(client, tools[w]!);
          await pause();
          if (Math.random() < 0.5) await rename(client, tools[w]!);
          await pause();
          await client.query(Math.random() < 0.15 ? 'ROLLBACK' : 'COMMIT');
        }
      }),
    ).finally(() => (writing = false));
    while (writing) await m.catchUp();
    await written;
    await m.catchUp();

    // What the table holds after the start, in the feed's order, is exactly what the mirror saw, in that order.
    const [from] = start.split('-');
    const stored = await queryRows<{ cursor: string }>(
      opened.db,
      sql`SELECT position_xid::text || '-' || id AS cursor FROM listing_changes
          WHERE (position_xid, id) > (${from}::xid8, ${start.split('-')[1]}::bigint) ORDER BY position_xid, id`,
    );
    expect(stored.length).toBeGreaterThan(10);
    expect(m.seen.map((e) => e.cursor)).toEqual(stored.map((r) => r.cursor));
  }, 120_000);
});
