// The crawl-error backfill on rows written before crawl errors had a kind: each old "<code>: <detail>" text is
// split into kind and operator detail, and the detail is cut out of status_note and site_history. The
// migrations are found by tag in drizzle's journal, so a renumbering at merge does not break the test.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsFolder } from '../../../src/db/node-clients';
import { publicCrawlError } from '../../../src/crawler/crawl-error-messages';

const journal = JSON.parse(readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
  entries: Array<{ tag: string }>;
};
const tags = journal.entries.map((entry) => entry.tag);
const firstNew = tags.findIndex((tag) => /^\d+_crawl_error_kind$/.test(tag));

async function applyMigrations(client: PGlite, which: readonly string[]): Promise<void> {
  for (const tag of which)
    await client.exec(
      readFileSync(join(migrationsFolder, `${tag}.sql`), 'utf8').replaceAll('--> statement-breakpoint', ''),
    );
}

// [crawl_error as stored before, status, kind, http status, detail after]
const LEGACY = [
  [
    'blocked_address: intranet.example resolves to a refused address: 10.20.30.40 is in a private range',
    'crawl_failed',
    'blocked_address',
    null,
    'intranet.example resolves to a refused address: 10.20.30.40 is in a private range',
  ],
  [
    'blocked_address: port 8080 is not allowed (only 80 and 443)',
    'crawl_failed',
    'blocked_port',
    null,
    'port 8080 is not allowed (only 80 and 443)',
  ],
  [
    'network_error: could not resolve gone.example: getaddrinfo ENOTFOUND gone.example',
    'crawl_failed',
    'dns_error',
    null,
    'could not resolve gone.example: getaddrinfo ENOTFOUND gone.example',
  ],
  ['network_error: gone.example has no addresses', 'crawl_failed', 'dns_error', null, 'gone.example has no addresses'],
  [
    'network_error: fetch failed: connect ECONNREFUSED 10.0.0.7:443',
    'queued',
    'network_error',
    null,
    'fetch failed: connect ECONNREFUSED 10.0.0.7:443',
  ],
  [
    'network_error: crawler error: TypeError: boom',
    'crawl_failed',
    'crawler_error',
    null,
    'crawler error: TypeError: boom',
  ],
  [
    'http_error: http://x.example/ answered HTTP 503',
    'crawl_failed',
    'http_error',
    503,
    'http://x.example/ answered HTTP 503',
  ],
  [
    'http_error: redirect 302 without a Location header',
    'crawl_failed',
    'http_error',
    302,
    'redirect 302 without a Location header',
  ],
  [
    'timeout: the crawl took longer than 10000 ms',
    'crawl_failed',
    'timeout',
    null,
    'the crawl took longer than 10000 ms',
  ],
  [
    'not_html: http://x.example/ is application/json, not HTML',
    'crawl_failed',
    'not_html',
    null,
    'http://x.example/ is application/json, not HTML',
  ],
  ['crawl did not finish', 'crawl_failed', 'did_not_finish', null, 'crawl did not finish'],
] as const;

let client: PGlite;
const ids: string[] = [];

beforeAll(async () => {
  expect(firstNew).toBeGreaterThan(0);
  client = await PGlite.create('memory://', { extensions: { pg_trgm } });
  await applyMigrations(client, tags.slice(0, firstNew));
  const [account] = (
    await client.query<{ id: string }>(`INSERT INTO accounts (email) VALUES ('legacy@example.com') RETURNING id`)
  ).rows;
  for (const [index, [stored, status]] of LEGACY.entries()) {
    const id = crypto.randomUUID();
    ids.push(id);
    // As crawl-site wrote them: the full error in crawl_error and in status_note, and so in site_history.
    await client.query(
      `INSERT INTO sites (id, account_id, name, url, canonical_url, normalized_name, status, via, plan, crawl_attempts, crawl_error, status_note)
       VALUES ($1, $2, $3, $4, $4, $3, 'crawling', 'membership', 'basic', 3, $5, 'crawl attempt 3')`,
      [id, account!.id, `legacy ${index}`, `https://legacy-${index}.example`, stored],
    );
    const note =
      stored === 'crawl did not finish' ? 'sweep: crawl attempt 3 did not finish' : `attempt 3 of 3 failed: ${stored}`;
    await client.query(`UPDATE sites SET status = $2, status_note = $3 WHERE id = $1`, [id, status, note]);
  }
  const untouched = crypto.randomUUID();
  ids.push(untouched);
  await client.query(
    `INSERT INTO sites (id, account_id, name, url, canonical_url, normalized_name, status, via, plan, status_note)
     VALUES ($1, $2, 'fresh', 'https://fresh.example', 'https://fresh.example', 'fresh', 'queued', 'membership', 'basic', 'paid')`,
    [untouched, account!.id],
  );
  await applyMigrations(client, tags.slice(firstNew));
});

afterAll(() => client?.close());

describe('crawl error backfill', () => {
  it('splits every old crawl_error into kind, HTTP status and operator detail', async () => {
    for (const [index, [stored, , kind, httpStatus, detail]] of LEGACY.entries()) {
      const { rows } = await client.query<{
        crawl_error_kind: string;
        crawl_error_http_status: number | null;
        crawl_error: string;
      }>('SELECT crawl_error_kind, crawl_error_http_status, crawl_error FROM sites WHERE id = $1', [ids[index]]);
      expect(rows[0], stored).toEqual({
        crawl_error_kind: kind,
        crawl_error_http_status: httpStatus,
        crawl_error: detail,
      });
    }
    const { rows } = await client.query('SELECT crawl_error_kind, crawl_error, status_note FROM sites WHERE id = $1', [
      ids.at(-1),
    ]);
    expect(rows[0]).toEqual({ crawl_error_kind: null, crawl_error: null, status_note: 'paid' });
  });

  it('reads back to submitters as the kind in words', async () => {
    const { rows } = await client.query<{ crawl_error_kind: string; crawl_error_http_status: number | null }>(
      'SELECT crawl_error_kind, crawl_error_http_status FROM sites WHERE id = $1',
      [ids[6]],
    );
    expect(publicCrawlError(rows[0]!.crawl_error_kind, rows[0]!.crawl_error_http_status)).toEqual({
      code: 'http_error',
      message: 'the site answered HTTP 503',
    });
  });

  it('cuts the detail out of status_note and site_history, keeping the kind', async () => {
    const notes = await client.query<{ note: string | null }>(
      `SELECT note FROM site_history WHERE site_id = ANY($1::uuid[]) UNION ALL SELECT status_note FROM sites WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    const all = notes.rows.map((row) => row.note ?? '');
    expect(all).toContain('attempt 3 of 3 failed: blocked_address');
    expect(all).toContain('attempt 3 of 3 failed: http_error');
    expect(all).toContain('sweep: crawl attempt 3 did not finish');
    for (const note of all) {
      expect(note).not.toMatch(/\d+\.\d+\.\d+\.\d+|ENOTFOUND|ECONNREFUSED|resolves to|x\.example|TypeError/);
    }
  });
});
