// Differential test of our Neon SQL-over-HTTP client (src/db/neon-http/) against the official one
// (@neondatabase/serverless `neon()`, configured by drizzle-orm/neon-http as in production before): the same
// statements through both, against the Neon stand-in over a real PostgreSQL, must send the same requests and
// give the same results and the same error fields.
import { createServer } from 'node:http';
import { neon, neonConfig } from '@neondatabase/serverless';
import { eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/neon-http';
import { bigint, boolean, date, integer, jsonb, numeric, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { neonHttpQuery, type NeonQueryFunction } from '../../../src/db/neon-http/query';
import { findPostgresBinaries, type PostgresServer, startPostgres } from '../../helpers/services/postgres';
import { requireService } from '../../helpers/services/require-service';
import { header, readBody } from '../../helpers/standins/http-io';
import { listenOnLoopback } from '../../helpers/standins/listen';
import { configureNeonClient, type NeonStandIn, startNeonStandIn } from '../../helpers/standins/neon-http';

const describePg = requireService('PostgreSQL', findPostgresBinaries() !== null);

/** What one client sent: the Neon-* headers (application_name aside, which names the client) and the body. */
interface Sent {
  headers: Record<string, string | undefined>;
  body: unknown;
}

/** A loopback proxy in front of the stand-in that records each request, so both clients' requests can be compared. */
async function recordingProxy(target: string) {
  const sent: Sent[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const headers: Record<string, string> = {};
      for (const name of [
        'Neon-Connection-String',
        'Neon-Raw-Text-Output',
        'Neon-Array-Mode',
        'Neon-Batch-Isolation-Level',
        'Neon-Batch-Read-Only',
        'Neon-Batch-Deferrable',
        'Authorization',
        'Content-Type',
      ]) {
        const value = header(req, name);
        if (value !== undefined) headers[name] = value;
      }
      const recorded = { ...headers };
      if (recorded['Neon-Connection-String']) {
        const url = new URL(recorded['Neon-Connection-String']);
        url.searchParams.delete('application_name');
        recorded['Neon-Connection-String'] = url.href;
      }
      sent.push({ headers: { ...recorded, method: req.method, path: req.url }, body: JSON.parse(body) });
      const answer = await fetch(target, { method: 'POST', headers, body });
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
      res.end(await answer.text());
    })();
  });
  const listening = await listenOnLoopback(server);
  return { endpoint: `${listening.url}/sql`, sent, close: listening.close };
}

/** Bytes compare by content (the official client's Buffer shim and our Uint8Array are both Uint8Array views). */
function normalise(value: unknown): unknown {
  if (value instanceof Uint8Array) return { bytes: Array.from(value) };
  if (Array.isArray(value)) return value.map(normalise);
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalise(v)]));
  }
  return value;
}

/** The public envelope of a result (the official one also carries its parser functions, _parsers and _types). */
function envelope(result: unknown): unknown {
  if (Array.isArray(result)) return normalise(result);
  const r = result as Record<string, unknown>;
  return normalise({
    fields: r.fields,
    command: r.command,
    rowCount: r.rowCount,
    rowAsArray: r.rowAsArray,
    rows: r.rows,
    viaNeonFetch: r.viaNeonFetch,
  });
}

const ERROR_FIELDS = [
  'name',
  'message',
  'severity',
  'code',
  'detail',
  'hint',
  'position',
  'internalPosition',
  'internalQuery',
  'where',
  'schema',
  'table',
  'column',
  'dataType',
  'constraint',
  'file',
  'line',
  'routine',
] as const;

async function outcome(run: () => Promise<unknown>): Promise<{ ok: unknown } | { error: Record<string, unknown> }> {
  try {
    return { ok: envelope(await run()) };
  } catch (e) {
    const error = e as Record<string, unknown>;
    return {
      error: {
        ...Object.fromEntries(ERROR_FIELDS.map((f) => [f, error[f]])),
        isError: e instanceof Error,
        sourceError: error.sourceError === undefined ? undefined : String(error.sourceError),
      },
    };
  }
}

const OPTIONS = [
  { arrayMode: false, fullResults: true }, // drizzle's raw queries (db.execute)
  { arrayMode: true, fullResults: true }, // drizzle's mapped selects
  { arrayMode: false, fullResults: false },
  { arrayMode: true, fullResults: false },
  undefined,
];

/** A parameter that formats itself (pg's toPostgres protocol). */
const custom = { toPostgres: () => 'from toPostgres' };

const SELECTS: [name: string, sql: string, params: unknown[]][] = [
  [
    'every column type our schema uses, as parameters',
    `select $1::uuid as u, $2::text as t, $3::int as i, $4::bigint as b, $5::numeric as n, $6::bool as bo,
      $7::timestamptz as ts, $8::date as d, $9::jsonb as j, $10::text[] as ta, $11::int[] as ia, $12::bytea as by,
      $13::text as nul, $14::bool as f, $15::float8 as fl, $16::text as und, $17::int[] as nested, $18::text as custom,
      $19::timestamptz[] as dates, $20::text[] as objs, $21::text[] as empty, $22::bytea as buf, $23::bigint as bign`,
    [
      '0b7c2d4e-9a41-4f51-8d7c-3a2b1c0d9e8f',
      'héllo "q" \\ x, {a}',
      42,
      '9007199254740993',
      '12.3400',
      true,
      new Date('2026-01-02T03:04:05.678Z'),
      '2026-02-03',
      { a: [1, 'x'], b: null, c: 'é"' },
      ['a', 'b,c', '"q"', null, 'back\\slash', ''],
      [1, 2, null],
      new Uint8Array([0, 1, 254, 255]),
      null,
      false,
      1.5,
      undefined,
      [
        [1, 2],
        [3, 4],
      ],
      custom,
      [new Date('2026-05-06T07:08:09.010Z'), null],
      [1, { k: 'v' }],
      [],
      Buffer.from('bytes\\"'),
      9007199254740993n,
    ],
  ],
  [
    'literals of every type the client parses',
    `select 1::int2 as i2, 2::oid as o, 1.25::float4 as f4, 'NaN'::float8 as nan, 'Infinity'::float8 as inf,
      '12345678901234567890.5'::numeric as big, '9223372036854775807'::bigint as maxb, '-5'::bigint as neg,
      array[true, false, null]::bool[] as ba, array[1, null, 3]::int2[] as i2a, array[9007199254740993, null]::int8[] as i8a,
      array[1.5, null]::float4[] as f4a, array[2.5]::float8[] as f8a, array[1.10, null]::numeric[] as na,
      array['{"a":1}', null]::jsonb[] as ja, array['[1]']::json[] as j1a, '{"x": [1, 2.50, "y"]}'::json as js,
      array['0b7c2d4e-9a41-4f51-8d7c-3a2b1c0d9e8f']::uuid[] as ua, array['a b', 'c']::varchar[] as va,
      array['x']::char(1)[] as ca, array['10.0.0.1']::inet[] as ia, array['10.0.0.0/8']::cidr[] as cida,
      array['08:00:2b:01:02:03']::macaddr[] as maca, array['12:00', null]::time[] as tia, array['12:00+02']::timetz[] as tza,
      array['[1,3)']::numrange[] as nra, array[1.5]::money[] as moa,
      array['2026-01-02 03:04:05+00']::timestamptz[] as tsa, array['2026-01-02 03:04:05']::timestamp[] as tsna,
      array['2026-01-02']::date[] as da, array['1 day']::interval[] as iva, '1 year 2 mons 3 days 04:05:06.7'::interval as iv,
      '2026-01-02 03:04:05'::timestamp as tsn, '2026-01-02 03:04:05.123456+05:30'::timestamptz as tsz,
      '(1.5,2)'::point as pt, array['(1,2)', null]::point[] as pta, '<(1,2),3.5>'::circle as ci,
      '\\x00ff10'::bytea as hexb, array['\\x01', null]::bytea[] as bya, '{{1,2},{3,4}}'::int[][] as grid,
      '{}'::text[] as emptya, array['with "quote"', 'back\\slash', 'NULL', null]::text[] as tricky,
      'a'::name as nm, 'x'::"char" as ch, '{"k": "v"}'::jsonb as jb, 'null'::jsonb as jnull, ''::text as blank,
      'f'::bool as ff, 'abc'::tsvector as tv, '1'::bit as bt, '2026-01-02'::date as dd`,
    [],
  ],
  ['no rows', `select 1 as n where false`, []],
  ['a value that needs a cast from text', `select $1 as untyped, $2::int + 1 as sum`, ['plain', '41']],
];

describePg('our Neon HTTP client against @neondatabase/serverless', () => {
  let server: PostgresServer;
  let standIn: NeonStandIn;
  let proxy: Awaited<ReturnType<typeof recordingProxy>>;
  let official: ReturnType<typeof neon>;
  let ours: NeonQueryFunction;

  beforeAll(async () => {
    server = await startPostgres();
    standIn = await startNeonStandIn();
    proxy = await recordingProxy(standIn.fetchEndpoint);
    configureNeonClient({ ...standIn, fetchEndpoint: proxy.endpoint });
    official = neon(server.connectionString);
    // What production used to run: drizzle's neon-http driver sets its type parsers on the official client.
    drizzle({ client: official });
    ours = neonHttpQuery(server.connectionString, proxy.endpoint);
    const setup = new pg.Client({ connectionString: server.connectionString });
    await setup.connect();
    await setup.query(`create table items (id uuid primary key default gen_random_uuid(), name text not null unique,
      count int, big bigint, amount numeric, active bool, data jsonb, tags text[], at timestamptz, day date, note text)`);
    await setup.end();
  });
  afterAll(async () => {
    configureNeonClient(standIn ?? { fetchEndpoint: '', wsProxy: () => '' });
    await proxy?.close();
    await standIn?.close();
    await server?.close();
  });

  /** Runs one call through both clients; returns both outcomes and both recorded requests. */
  async function both(sql: string, params: unknown[], options?: { arrayMode: boolean; fullResults: boolean }) {
    const before = proxy.sent.length;
    const theirs = await outcome(() => official.query(sql, params, options));
    const mine = await outcome(() => ours(sql, params, options));
    return { theirs, mine, requests: proxy.sent.slice(before) };
  }

  for (const [name, sql, params] of SELECTS) {
    it(`${name}: same request, same parsed result in every mode`, async () => {
      for (const options of OPTIONS) {
        const { theirs, mine, requests } = await both(sql, params, options);
        expect('ok' in theirs, JSON.stringify(theirs)).toBe(true);
        expect(mine).toStrictEqual(theirs);
        expect(requests).toHaveLength(2);
        expect(requests[1]).toStrictEqual(requests[0]);
      }
    });
  }

  it('parses bytea and booleans to the same values (spot check of the normalised comparison)', async () => {
    const result = (await ours(`select '\\x00ff'::bytea as b, 't'::bool as t`, [], {
      arrayMode: false,
      fullResults: false,
    })) as Record<string, unknown>[];
    expect(result[0]!.b).toBeInstanceOf(Uint8Array);
    expect(Array.from(result[0]!.b as Uint8Array)).toEqual([0, 255]);
    expect(result[0]!.t).toBe(true);
  });

  it('writes: insert … returning, update and delete report the same command, rowCount and rows', async () => {
    const statements: [string, (p: string) => unknown[]][] = [
      [
        `insert into items (name, count, big, amount, active, data, tags, at, day) values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
        returning name, count, big, amount, active, data, tags, at, day, note`,
        (p) => [
          `${p}-a`,
          7,
          9007199254740993n,
          '1.50',
          true,
          { n: 1 },
          ['x', 'y z'],
          new Date('2026-03-04T05:06:07.089Z'),
          '2026-03-04',
        ],
      ],
      [`update items set count = count + 1 where name = $1 returning count`, (p) => [`${p}-a`]],
      [`update items set note = 'none' where name = $1`, (p) => [`${p}-missing`]],
      [`delete from items where name = $1`, (p) => [`${p}-a`]],
    ];
    for (const [round, options] of [OPTIONS[0], OPTIONS[1]].entries()) {
      for (const [sql, params] of statements) {
        const theirs = await outcome(() => official.query(sql, params(`o${round}`), options));
        const mine = await outcome(() => ours(sql, params(`m${round}`), options));
        expect('ok' in theirs, JSON.stringify(theirs)).toBe(true);
        // Same statement on rows named per client: only the name prefix differs.
        expect(JSON.stringify(mine).replaceAll(`"m${round}-`, `"o${round}-`)).toBe(JSON.stringify(theirs));
      }
    }
  });

  const ERRORS: [string, string, unknown[]][] = [
    ['a unique violation (23505, constraint, detail)', `insert into items (name) values ($1), ($1)`, ['dup']],
    ['a syntax error (42601, position)', `selec 1`, []],
    [
      'a not-null violation (23502, column)',
      `insert into items (id, name) values ('00000000-0000-4000-8000-000000000001', null)`,
      [],
    ],
    ['invalid input for a type (22P02)', `select $1::int`, ['abc']],
    ['division by zero (22012)', `select 1 / 0`, []],
    ['an undefined table (42P01)', `select * from nowhere`, []],
    [
      'an error raised with hint and detail (P0001, where)',
      `do $$ begin raise exception 'boom' using detail = 'd', hint = 'h', errcode = 'P0001'; end $$`,
      [],
    ],
  ];
  for (const [name, sql, params] of ERRORS) {
    it(`${name}: the same NeonDbError fields`, async () => {
      const { theirs, mine } = await both(sql, params, OPTIONS[0]);
      expect('error' in theirs && theirs.error.code, JSON.stringify(theirs)).toMatch(/^[0-9A-Z]{5}$/);
      expect(mine).toStrictEqual(theirs);
    });
  }

  it('a database the stand-in cannot reach (HTTP 503): the same "Server error" error', async () => {
    const down = 'postgresql://nobody@127.0.0.1:1/none';
    const theirs = await outcome(() => neon(down).query('select 1', []));
    const mine = await outcome(() => neonHttpQuery(down, proxy.endpoint)('select 1', []));
    expect('error' in theirs && String(theirs.error.message)).toMatch(/^Server error \(HTTP status 503\)/);
    expect(mine).toStrictEqual(theirs);
  });

  it('an endpoint nobody answers: the same "Error connecting to database" error with its sourceError', async () => {
    const closed = await listenOnLoopback(createServer());
    await closed.close();
    neonConfig.fetchEndpoint = `${closed.url}/sql`;
    try {
      const theirs = await outcome(() => official.query('select 1', []));
      const mine = await outcome(() => neonHttpQuery(server.connectionString, `${closed.url}/sql`)('select 1', []));
      expect('error' in theirs && String(theirs.error.message)).toMatch(/^Error connecting to database: /);
      expect(mine).toStrictEqual(theirs);
    } finally {
      neonConfig.fetchEndpoint = proxy.endpoint;
    }
  });

  it('a connection string that is not a PostgreSQL URL: the same errors, and no request sent', async () => {
    for (const bad of ['not a url', 'mysql://u@h/db', 'postgresql://h/db', 'postgresql://u@h', 'postgresql://u@-/db']) {
      const before = proxy.sent.length;
      const theirs = await outcome(() => neon(bad).query('select 1', []));
      const mine = await outcome(() => neonHttpQuery(bad, proxy.endpoint)('select 1', []));
      expect('error' in theirs, bad).toBe(true);
      expect(mine, bad).toStrictEqual(theirs);
      expect(proxy.sent.length).toBe(before);
    }
  });

  it('a postgres:// URL and one with its own application_name are sent as the official client sends them', async () => {
    const url = new URL(server.connectionString);
    const withScheme = (scheme: string) => server.connectionString.replace(/^postgres(ql)?:/, scheme);
    for (const variant of [
      withScheme('postgres:'),
      withScheme('postgresql:'),
      `${server.connectionString}${url.search ? '&' : '?'}application_name=mine`,
    ]) {
      const before = proxy.sent.length;
      await neon(variant).query('select 1', []);
      await neonHttpQuery(variant, proxy.endpoint)('select 1', []);
      const [a, b] = proxy.sent.slice(before);
      expect(b).toStrictEqual(a);
    }
  });

  describe('through drizzle (what the app runs)', () => {
    const items = pgTable('items', {
      id: uuid('id').primaryKey().defaultRandom(),
      name: text('name').notNull().unique(),
      count: integer('count'),
      big: bigint('big', { mode: 'number' }),
      amount: numeric('amount'),
      active: boolean('active'),
      data: jsonb('data'),
      tags: text('tags').array(),
      at: timestamp('at', { withTimezone: true, mode: 'date' }),
      day: date('day', { mode: 'string' }),
      note: text('note'),
    });

    it('inserts, selects and maps rows the same way, and wraps a unique violation the same way', async () => {
      const dbs = { o: drizzle({ client: official }), m: drizzle({ client: ours as unknown as typeof official }) };
      const seen: Record<string, unknown> = {};
      for (const [prefix, db] of Object.entries(dbs)) {
        const values = {
          name: `${prefix}-d`,
          count: 3,
          big: 12345678901,
          amount: '0.10',
          active: false,
          data: { deep: { list: [1, null] } },
          tags: ['t1', 'a "b"'],
          at: new Date('2026-07-08T09:10:11.012Z'),
          day: '2026-07-08',
        };
        const [inserted] = await db.insert(items).values(values).returning();
        const [selected] = await db
          .select()
          .from(items)
          .where(eq(items.name, `${prefix}-d`));
        const partial = await db
          .select({ n: items.name, tags: items.tags })
          .from(items)
          .where(eq(items.name, `${prefix}-d`));
        const duplicate = await db
          .insert(items)
          .values({ name: `${prefix}-d` })
          .then(
            () => undefined,
            (e: { cause?: Record<string, unknown> }) => e,
          );
        const cause = (duplicate as { cause?: Record<string, unknown> } | undefined)?.cause;
        seen[prefix] = JSON.stringify({
          inserted: { ...inserted, id: typeof inserted?.id },
          selected: { ...selected, id: typeof selected?.id },
          partial,
          error: cause && Object.fromEntries(ERROR_FIELDS.map((f) => [f, cause[f]])),
        }).replaceAll(`${prefix}-d`, 'x-d');
      }
      expect(JSON.parse(seen.o as string)).toMatchObject({
        selected: { big: 12345678901, at: '2026-07-08T09:10:11.012Z' },
        error: { code: '23505' },
      });
      expect(seen.m).toBe(seen.o);
    });
  });
});
