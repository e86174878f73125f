// The change feed through the production driver (drizzle neon-http against the Neon stand-in, a real PostgreSQL):
// each request is its own transaction there, and the feed's rule holds the same: a change committed while an older
// transaction still runs waits for it; the cursor's 64-bit transaction ids survive the text protocol; bad cursors
// are 400s; a page is two statements.
import pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import { findPostgresBinaries } from '../helpers/services/postgres';
import { requireService } from '../helpers/services/require-service';
import { useNeonTestApp } from '../helpers/standins/neon-database';
import { seedTools } from '../helpers/live-tools';

const describePg = requireService('PostgreSQL', findPostgresBinaries() !== null);

describePg('the change feed on PostgreSQL through drizzle neon-http', () => {
  const h = useNeonTestApp();
  const clients: pg.Client[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.end()));
  });

  let address = 0;
  const get = (path: string) => h.t.request(path, { headers: { 'cf-connecting-ip': `203.0.113.${++address % 250}` } });
  async function page(since: string) {
    const res = await get(`/api/v1/changes?since=${since}`);
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as { changes: { cursor: string; kind: string; site_id: string }[]; next_cursor: string };
  }

  it('serves a change once, after the older transaction that was running when it committed ends', async () => {
    const older = new pg.Client({ connectionString: h.pg.connectionString });
    await older.connect();
    clients.push(older);
    const start = (await page('now')).next_cursor;
    expect(start).toMatch(/^\d+-\d+$/);

    await older.query('BEGIN');
    await older.query('SELECT pg_current_xact_id()');
    const [tool] = await seedTools(h.t.deps.db, [{ name: 'Neon Feed' }]);
    const before = h.neon.requestCount;
    const held = await page(start);
    expect(h.neon.requestCount - before).toBe(2);
    expect(held).toEqual({ changes: [], next_cursor: start, has_more: false });

    await older.query('COMMIT');
    const served = await page(start);
    expect(served.changes.map((c) => [c.kind, c.site_id])).toEqual([['appeared', tool!.id]]);
    expect(served.next_cursor).toBe(served.changes[0]!.cursor);
    expect((await page(served.next_cursor)).changes).toEqual([]);
  });

  it('refuses malformed and future cursors with a 400 in the error shape', async () => {
    for (const [since, says] of [
      ['nope', /malformed/],
      ['18446744073709551615-1', /future/],
    ] as const) {
      const res = await get(`/api/v1/changes?since=${since}`);
      expect(res.status).toBe(400);
      expect((await res.json()).error).toMatchObject({ code: 'invalid_request', message: expect.stringMatching(says) });
    }
  });
});
