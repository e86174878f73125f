// The sitemap on real PostgreSQL through the production driver (drizzle neon-http against the Neon stand-in):
// each answer is ONE statement, the index form and its children are valid and list every URL once, and a child
// is a range scan of the listed index with no sort (keys, not an OFFSET scan; docs/seo.md).
import { afterAll, beforeAll, expect, it } from 'vitest';
import pg from 'pg';
import { PgDialect } from 'drizzle-orm/pg-core';
import { decodeListedKey } from '../../src/directory/sitemap-keys';
import { toolsChildStatement } from '../../src/directory/sitemap';
import { findPostgresBinaries, type PostgresServer } from '../helpers/services/postgres';
import { requireService } from '../helpers/services/require-service';
import type { NeonStandIn } from '../helpers/standins/neon-http';
import { startNeonDatabase } from '../helpers/standins/neon-database';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { seedTools, type SeededTool } from '../helpers/live-tools';
import { elementTexts, xsdErrors } from '../helpers/sitemap-xsd';

const describePg = requireService('PostgreSQL', findPostgresBinaries() !== null);
const origin = 'http://tooldir.test';
const MAX = 3;

describePg('sitemap on PostgreSQL through drizzle neon-http', () => {
  let server: PostgresServer;
  let neon: NeonStandIn;
  let t: TestApp;
  let tools: SeededTool[];

  beforeAll(async () => {
    const started = await startNeonDatabase({ poolSize: 5 });
    ({ pg: server, neon } = started);
    t = await createTestApp({ db: { db: started.db, close: async () => {} }, app: { sitemap: { maxUrls: MAX } } });
    const base = Date.parse('2030-03-01T00:00:00Z');
    tools = await seedTools(
      started.db,
      Array.from({ length: 7 }, (_, i) => ({
        name: `Neon Sitemap ${i}`,
        publishedAt: new Date(base + i * 1000),
        categories: ['data'],
      })),
    );
    await seedTools(started.db, [{ name: 'Neon Pending', status: 'pending_review' }]);
  });
  afterAll(async () => {
    await t?.close();
    await neon?.close();
    await server?.close();
  });

  /** One answer and the number of SQL round trips it took. */
  async function fetchCounted(path: string): Promise<{ body: string; statements: number }> {
    const before = neon.requestCount;
    const res = await t.request(path);
    expect(res.status, path).toBe(200);
    const body = await res.text();
    return { body, statements: neon.requestCount - before };
  }

  it('answers the index and every child in one statement each, together listing every URL once', async () => {
    const index = await fetchCounted('/sitemap.xml');
    expect(index.statements).toBe(1);
    expect(await xsdErrors(index.body, 'siteindex')).toEqual([]);
    const children = elementTexts(index.body, 'loc');
    expect(children).toHaveLength(1 + Math.ceil(tools.length / MAX));
    const listed: string[] = [];
    for (const loc of children) {
      const child = await fetchCounted(loc.slice(origin.length));
      expect(child.statements, loc).toBe(1);
      expect(await xsdErrors(child.body, 'sitemap')).toEqual([]);
      const locs = elementTexts(child.body, 'loc');
      expect(locs.length).toBeLessThanOrEqual(MAX);
      for (const lastmod of elementTexts(child.body, 'lastmod'))
        expect(lastmod).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      listed.push(...locs);
    }
    const expected = [
      `${origin}/`,
      `${origin}/categories/data`,
      ...tools.map((tool) => `${origin}/tools/${tool.slug}`),
    ];
    expect([...listed].sort()).toEqual([...expected].sort());
  });

  it('reads a child as a range of sites_live_listing_idx in its order: no sort, no scan of earlier tools', async () => {
    const children = elementTexts((await fetchCounted('/sitemap.xml')).body, 'loc');
    const url = new URL(children[2]!);
    const bounds = {
      from: decodeListedKey(url.searchParams.get('from')!),
      to: decodeListedKey(url.searchParams.get('to')!),
    };
    expect(bounds.from && bounds.to).toBeTruthy();
    const query = new PgDialect().sqlToQuery(toolsChildStatement(bounds, 50_000));
    const client = new pg.Client({ connectionString: server.connectionString });
    await client.connect();
    try {
      // A table of a few rows is cheaper to read whole; what matters is that the index can serve the range.
      await client.query('SET enable_seqscan = off');
      const plan = (await client.query(`EXPLAIN ${query.sql}`, query.params)).rows
        .map((r: { 'QUERY PLAN': string }) => r['QUERY PLAN'])
        .join('\n');
      expect(plan).toMatch(/Index Scan (Backward )?using sites_live_listing_idx on sites s/);
      // Both bounds are index conditions: the scan starts at `from` and stops at `to`.
      expect(plan).toMatch(/Index Cond: .*\(listed_at, id\) >= .* AND .*\(listed_at, id\) < /);
      expect(plan).not.toMatch(/Sort/);
    } finally {
      await client.end();
    }
  });
});
