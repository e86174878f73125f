// "The limiter decides before any expensive statement runs" (docs/decisions.md, "Rate limits"), read
// from PostgreSQL's own statement log (log_statement=all): not a count our code keeps, what the server ran.
// Every search surface (the home page's ?q=, GET /api/v1/tools, MCP search_tools) is driven past the per-IP
// public limit, and the outbound link and the badge past theirs; the refused requests must leave no statement on
// the sites table in the server's log.
import { afterAll, beforeAll, expect, it } from 'vitest';
import pg from 'pg';
import { openNodePostgres, type OpenedDb } from '../../src/db/node-clients';
import { rateLimitPolicies } from '../../src/rate-limits/policies';
import { seedTools } from '../helpers/live-tools';
import { findPostgresBinaries, type PostgresServer, startPostgres } from '../helpers/services/postgres';
import { requireService } from '../helpers/services/require-service';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { callTool, connectMcp, resultJson } from '../functions/mcp/mcp-client';

const describePg = requireService('PostgreSQL', findPostgresBinaries() !== null);
const PUBLIC_LIMIT = rateLimitPolicies.public.limit;
const LINK_LIMIT = rateLimitPolicies.outboundLinks.limit;
const BADGE_LIMIT = rateLimitPolicies.badges.limit;
const REFUSED = 20;

describePg('refused searches run no search statement (PostgreSQL statement log)', () => {
  let server: PostgresServer;
  let db: OpenedDb;
  let t: TestApp;
  let marker: pg.Client;
  let slug: string;

  beforeAll(async () => {
    server = await startPostgres({ database: 'tooldir_limits', settings: { log_statement: 'all' }, captureLog: true });
    db = await openNodePostgres(server.connectionString);
    t = await createTestApp({ db: { db: db.db, close: async () => {} } });
    const [tool] = await seedTools(t.deps.db, [{ name: 'Logged Writer', description: 'Writes logs.' }]);
    slug = tool!.slug;
    marker = new pg.Client({ connectionString: server.connectionString });
    await marker.connect();
  });
  afterAll(async () => {
    await marker?.end();
    await t?.close();
    await db?.close();
    await server?.close();
  });

  /**
   * The server's log entries written between two markers. A marker is a statement of its own, run after every
   * response of the window has arrived; waiting for its line proves every earlier line has been read.
   */
  async function logDuring(run: () => Promise<void>): Promise<string[]> {
    const begin = await mark();
    await run();
    const end = await mark();
    const log = server.serverLog();
    const window = log.slice(log.indexOf(begin), log.indexOf(end));
    // Entries start with the default log_line_prefix ("2025-01-01 00:00:00.000 UTC [pid] LOG:  ...").
    return window.split(/\n(?=\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)/);
  }
  async function mark(): Promise<string> {
    const text = `marker-${crypto.randomUUID()}`;
    await marker.query(`SELECT '${text}'`);
    while (!server.serverLog().includes(text)) await new Promise((resolve) => setTimeout(resolve, 20));
    return text;
  }
  // Every search statement reads the sites table (src/directory/search-statements.ts).
  const searchStatements = (entries: string[]) =>
    entries.filter((e) => /LOG:\s+(statement|execute [^:]*):/.test(e) && /\bsites\b/.test(e));

  async function exhaust(request: () => Promise<number>, okStatus = 200, limit = PUBLIC_LIMIT) {
    const allowed = await logDuring(async () => {
      for (let i = 0; i < limit; i++) expect(await request()).toBe(okStatus);
    });
    // The positive control: the log does show the lookups that were allowed.
    expect(searchStatements(allowed).length).toBeGreaterThanOrEqual(limit);
    const refused = await logDuring(async () => {
      for (let i = 0; i < REFUSED; i++) expect(await request()).toBe(429);
    });
    return searchStatements(refused);
  }

  // Every request a different search: one the page cache holds is answered before the limiter, with no search
  // statement at all (docs/pages.md "Caching and rate limits"), so it would prove nothing here.
  let n = 0;
  const query = () => `nothing%20matches%20this%20${++n}`;

  it('the home page ?q=', async () => {
    const ip = { 'cf-connecting-ip': '203.0.113.10' };
    const ran = await exhaust(async () => (await t.request(`/?q=${query()}`, { headers: ip })).status);
    expect(ran).toEqual([]);
  });

  it('GET /api/v1/tools?q=', async () => {
    const ip = { 'cf-connecting-ip': '203.0.113.11' };
    const ran = await exhaust(async () => (await t.request(`/api/v1/tools?q=${query()}`, { headers: ip })).status);
    expect(ran).toEqual([]);
  });

  it('MCP search_tools', async () => {
    const client = await connectMcp(t, { ip: '203.0.113.12' });
    const ran = await exhaust(async () => {
      const result = await callTool(client, 'search_tools', { query: 'nothing matches this' });
      if (!result.isError) return 200;
      return (resultJson(result) as { error: { code: string } }).error.code === 'rate_limited' ? 429 : 500;
    });
    expect(ran).toEqual([]);
    await client.close();
  });

  // Each lookup reads the live tool by its slug (src/stats/outbound-link.ts, src/directory/get-tool.ts).
  it('the outbound link GET /go/{slug}', async () => {
    const ip = { 'cf-connecting-ip': '203.0.113.13' };
    const ran = await exhaust(async () => (await t.request(`/go/${slug}`, { headers: ip })).status, 302, LINK_LIMIT);
    expect(ran).toEqual([]);
  });

  it('the badge GET /badge/{slug}.svg', async () => {
    const ip = { 'cf-connecting-ip': '203.0.113.14' };
    const ran = await exhaust(
      async () => (await t.request(`/badge/${slug}.svg`, { headers: ip })).status,
      200,
      BADGE_LIMIT,
    );
    expect(ran).toEqual([]);
  });
});
