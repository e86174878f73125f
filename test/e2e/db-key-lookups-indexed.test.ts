// Every lookup of a listing by its key uses an index (issue 27: nothing grows with the directory where one row is
// asked for). The unique keys of `sites` are partial indexes (`WHERE withdrawn_at IS NULL`): a lookup that does not
// state that condition cannot use them, and PostgreSQL then reads the whole table, per request or, inside a batch,
// per row (the key backfill took hours at 250,000 tools that way). On a real PostgreSQL server with sequential scans
// priced out (`enable_seqscan = off`, so a plan keeps one only when no index can answer) and every plan logged by
// auto_explain, nested statements included: the URL change of a failed crawl, a claim and the review's duplicate check
// read `sites` through indexes only.
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { actorForWebSession } from '../../src/accounts/actor';
import { createPackagePublicSuffixes } from '../../functions/node/public-suffixes';
import { buildDeps } from '../../src/build-deps';
import { claimSite } from '../../src/claims/claim-site';
import { loadConfig } from '../../src/config';
import { queryRows } from '../../src/db/client';
import { openNodePostgres, type OpenedDb } from '../../src/db/node-clients';
import type { Deps } from '../../src/deps';
import { createLogger } from '../../src/log';
import { reviewSite } from '../../src/pipeline/review-site';
import { changeSiteUrl } from '../../src/submissions/change-url';
import { findPostgresBinaries, type PostgresServer, startPostgres } from '../helpers/services/postgres';
import { requireService } from '../helpers/services/require-service';

const describePg = requireService('PostgreSQL', findPostgresBinaries() !== null);

describePg('lookups of a listing by its key use an index (real PostgreSQL)', () => {
  let server: PostgresServer;
  let opened: OpenedDb;
  let client: pg.Client;
  let deps: Deps;
  const actor = (accountId: string) => actorForWebSession({ accountId, email: 'owner@example.com' });

  beforeAll(async () => {
    server = await startPostgres({
      database: 'tooldir_key_lookups',
      captureLog: true,
      settings: {
        shared_preload_libraries: 'auto_explain',
        'auto_explain.log_min_duration': '0',
        'auto_explain.log_nested_statements': 'on',
        enable_seqscan: 'off',
      },
    });
    opened = await openNodePostgres(server.connectionString, { max: 1 });
    client = new pg.Client({ connectionString: server.connectionString });
    await client.connect();
    // Enough listings, analysed, that walking a whole index costs the planner what it costs (on a few rows every
    // partial index with an implied predicate looks as cheap as the right one).
    const filler = (
      await client.query<{ id: string }>(`INSERT INTO accounts (email) VALUES ('filler@example.com') RETURNING id`)
    ).rows[0]!.id;
    await client.query(
      `INSERT INTO sites (id, account_id, name, url, canonical_url, normalized_name, status, via, plan, submitted_at, metadata)
       SELECT gen_random_uuid(), $1, 'Filler ' || i, 'https://filler-' || i || '.example/', 'https://filler-' || i || '.example/',
         'filler ' || i, CASE WHEN i % 3 = 0 THEN 'queued' ELSE 'live' END, 'membership', 'basic', now(),
         jsonb_build_object('finalCanonical', 'https://filler-' || i || '.example/')
       FROM generate_series(1, 5000) AS i`,
      [filler],
    );
    await client.query('ANALYZE sites');
    deps = buildDeps(loadConfig({ DATA_DIR: '/nonexistent', LOG_LEVEL: 'silent' }), opened.db, {
      log: createLogger('silent'),
      publicSuffixes: createPackagePublicSuffixes(),
    });
  }, 120_000);

  afterAll(async () => {
    await client?.end();
    await opened?.close();
    await server?.close();
  });

  const account = async (email: string) =>
    (await client.query<{ id: string }>(`INSERT INTO accounts (email) VALUES ($1) RETURNING id`, [email])).rows[0]!.id;

  /** A site in `status` with `url` as its address and key (and, for a crawled one, where its crawl ended). */
  const site = async (owner: string, url: string, status: string, finalCanonical?: string) =>
    (
      await client.query<{ id: string }>(
        `INSERT INTO sites (id, account_id, name, url, canonical_url, normalized_name, status, via, plan, submitted_at, metadata)
         VALUES (gen_random_uuid(), $1, $2, $2, $2, lower($2), $3, 'membership', 'basic', now(), $4::jsonb) RETURNING id`,
        [owner, url, status, finalCanonical ? JSON.stringify({ finalCanonical, title: 'T' }) : null],
      )
    ).rows[0]!.id;

  /**
   * The plans PostgreSQL logged while `run` ran. The server's log reaches us through a pipe, so a marker statement
   * logged after them is awaited: everything before it in the log is complete.
   */
  const plansDuring = async (run: () => Promise<unknown>): Promise<string> => {
    const from = server.serverLog().length;
    await run().catch(() => undefined); // a refusal still ran its lookup; the plans are what is checked
    const marker = `plans-end-${crypto.randomUUID()}`;
    await client.query(`SELECT '${marker}'`);
    for (let waited = 0; !server.serverLog().includes(marker, from); waited += 10) {
      if (waited > 10_000) throw new Error('the server never logged the marker statement');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const logged = server.serverLog().slice(from, server.serverLog().indexOf(marker, from));
    return logged;
  };
  const SEQ_SCAN_OF_SITES = /Seq Scan on sites\b/;
  /** Whether `plans` read `sites` through `index` with a condition on its key. */
  const readThrough = (plans: string, index: string) =>
    new RegExp(`(Index Scan|Index Only Scan) using ${index} on sites|Bitmap Index Scan on ${index}\\b`).test(plans);

  it('shows a lookup that no index can answer (the check can fail)', async () => {
    const plans = await plansDuring(() =>
      queryRows(opened.db, sql`SELECT id FROM sites WHERE url = 'https://x.example/'`),
    );
    expect(plans).toMatch(SEQ_SCAN_OF_SITES);
    expect(readThrough(plans, 'sites_canonical_url_key')).toBe(false);
  });

  it('changing the address of a failed crawl looks for a holder of the new address by index', async () => {
    const owner = await account('change-url@example.com');
    const failed = await site(owner, 'https://typo.example/', 'crawl_failed');
    await site(owner, 'https://taken.example/', 'live');
    const changed = await plansDuring(() =>
      changeSiteUrl({ deps, actor: actor(owner), input: { site_id: failed, url: 'https://right.example/' } }),
    );
    expect(readThrough(changed, 'sites_canonical_url_key')).toBe(true);
    expect(changed).not.toMatch(SEQ_SCAN_OF_SITES);
    // Refused (the address is another listing's): the refusal's own read names the holder, by index too.
    const refused = await plansDuring(() =>
      changeSiteUrl({ deps, actor: actor(owner), input: { site_id: failed, url: 'https://taken.example/' } }),
    );
    expect(readThrough(refused, 'sites_canonical_url_key')).toBe(true);
    expect(refused).not.toMatch(SEQ_SCAN_OF_SITES);
  });

  it('a claim finds the listing of a URL by index', async () => {
    const owner = await account('claimed@example.com');
    const claimant = await account('claimant@example.com');
    await site(owner, 'https://claimed.example/', 'live');
    const plans = await plansDuring(() =>
      claimSite({ deps, actor: actor(claimant), input: { url: 'https://claimed.example/' } }),
    );
    expect(readThrough(plans, 'sites_canonical_url_key')).toBe(true);
    expect(plans).not.toMatch(SEQ_SCAN_OF_SITES);
  });

  it('the review looks for a live duplicate of the crawled address by index', async () => {
    const owner = await account('review@example.com');
    await site(owner, 'https://live.example/', 'live', 'https://live.example/');
    const waiting = await site(owner, 'https://other.example/', 'pending_review', 'https://live.example/');
    const plans = await plansDuring(() => reviewSite(deps, waiting));
    expect(readThrough(plans, 'sites_live_final_canonical_idx')).toBe(true);
    expect(readThrough(plans, 'sites_canonical_url_key')).toBe(true);
    expect(plans).not.toMatch(SEQ_SCAN_OF_SITES);
  });
});
