// The bare floor of a read (docs/bench.md "Reads against the bare floor"): node:http and a node-postgres pool,
// nothing else, running the very statement the app's verb issues, so real/floor measures the app's layers and
// nothing but them. Started as its own process by bare-floor.ts. At start-up (not per request) each verb is
// called once against a recording database to capture its statement's text and parameters; per request only
// the path's value is put in its parameter slot, the statement runs as a named prepared statement (as the app's
// pool does, src/db/node-statement-cache.ts) and the rows are sent as JSON.
import { createServer } from 'node:http';
import { fillPlaceholders, type Query, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import type { Deps } from '../../../src/deps';
import type { Db } from '../../../src/db/client';
import { getSubmission } from '../../../src/submissions/get';
import { listSubmissions } from '../../../src/submissions/list';
import { getTool } from '../../../src/directory/get-tool';

const SENTINEL_ID = '00000000-0000-4000-8000-00000000f100';
const SENTINEL_SLUG = 'bare-floor-sentinel-slug';

interface Captured {
  name: string;
  text: string;
  params: unknown[];
  /** Indexes of the parameters that take the request's path value. */
  slots: number[];
}

/** Calls `run` against a database that records the one statement it is given (either way a verb runs one) and answers no rows. */
async function capture(name: string, run: (deps: Deps) => Promise<unknown>, sentinel?: string): Promise<Captured> {
  let query: Query | undefined;
  const session = {
    prepareQuery: (q: Query) => ({
      execute: async (values: Record<string, unknown>) => (
        (query = { sql: q.sql, params: fillPlaceholders(q.params, values) }), { rows: [] }
      ),
    }),
  };
  const db = {
    _: { session },
    execute: async (q: SQL) => ((query = new PgDialect().sqlToQuery(q)), { rows: [] }),
  } as unknown as Db;
  await run({ db, origin: 'http://127.0.0.1' } as Deps).catch(() => undefined); // no rows: the verbs answer not_found
  if (!query) throw new Error(`${name}: the verb ran no statement`);
  const { sql, params } = query;
  const slots = params.flatMap((p, i) => (sentinel !== undefined && p === sentinel ? [i] : []));
  if (sentinel !== undefined && slots.length === 0) throw new Error(`${name}: the path value is not a parameter`);
  return { name: `bare_${name}`, text: sql, params, slots };
}

const accountId = process.env.FLOOR_ACCOUNT_ID;
if (!accountId) throw new Error('FLOOR_ACCOUNT_ID is required');
const actor = { accountId, keyId: SENTINEL_ID, email: 'floor@example.com' };
const statements = {
  site: await capture('site', (deps) => getSubmission({ deps, actor, input: { siteId: SENTINEL_ID } }), SENTINEL_ID),
  sites: await capture('sites', (deps) => listSubmissions({ deps, actor, input: { limit: 20, offset: 0 } })),
  tool: await capture('tool', (deps) => getTool({ deps, input: { slug: SENTINEL_SLUG } }), SENTINEL_SLUG),
};

// As many connections as the app's server keeps (FLOOR_POOL_MAX, from lib/bare-floor.ts), so both share the cores alike.
const pool = new pg.Pool({ connectionString: process.env.FLOOR_DATABASE_URL, max: Number(process.env.FLOOR_POOL_MAX) });

async function run(statement: Captured, value?: string): Promise<unknown[]> {
  const values =
    statement.slots.length === 0
      ? statement.params
      : statement.params.map((p, i) => (statement.slots.includes(i) ? value : p));
  return (await pool.query({ name: statement.name, text: statement.text, values })).rows;
}

const server = createServer((req, res) => {
  const url = req.url ?? '/';
  let work: Promise<unknown> | undefined;
  if (url.startsWith('/sites/'))
    work = run(statements.site, url.slice(7)).then((rows) => (rows[0] as { row: unknown } | undefined)?.row);
  else if (url === '/sites') work = run(statements.sites);
  else if (url.startsWith('/tools/')) work = run(statements.tool, url.slice(7)).then((rows) => rows[0]);
  if (!work) {
    res.writeHead(404).end();
    return;
  }
  work.then(
    (body) => {
      if (body === undefined) return void res.writeHead(404).end();
      const text = JSON.stringify(body);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
    },
    (error: unknown) => res.writeHead(500).end(String(error)),
  );
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(
    `FLOOR_READY ${JSON.stringify({ url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` })}`,
  );
});
const stop = () => server.close(() => void pool.end().then(() => process.exit(0)));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
