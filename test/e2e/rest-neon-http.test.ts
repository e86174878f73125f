// The REST submission API on real PostgreSQL through the production driver: drizzle neon-http against the
// Neon SQL-over-HTTP stand-in. Neon HTTP has no interactive transactions, so these cases prove that every
// atomic step (quota + insert, conflict detection) holds as single statements under concurrency.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client';
import { findPostgresBinaries, type PostgresServer } from '../helpers/services/postgres';
import { requireService } from '../helpers/services/require-service';
import type { NeonStandIn } from '../helpers/standins/neon-http';
import { startNeonDatabase } from '../helpers/standins/neon-database';
import { createTestApp, type TestApp } from '../helpers/test-app';

const describePg = requireService('PostgreSQL', findPostgresBinaries() !== null);

let n = 0;
const tool = (tag: string) => ({
  name: `${tag} Tool ${++n}`,
  url: `https://${tag.toLowerCase()}-${n}-${Date.now()}.example/`,
});

describePg('REST API on PostgreSQL through drizzle neon-http', () => {
  let pg: PostgresServer;
  let neon: NeonStandIn;
  let t: TestApp;
  let neonRequestsAtStart = 0;

  beforeAll(async () => {
    const started = await startNeonDatabase({ poolSize: 20 });
    ({ pg, neon } = started);
    const db = started.db;
    t = await createTestApp({
      db: { db, close: async () => {} },
      env: { MEMBER_DAILY_LIMIT: '5' },
      overrides: { queue: { kind: 'local', enqueue: async () => {} } },
    });
    neonRequestsAtStart = neon.requestCount;
  });
  afterAll(async () => {
    await t?.close();
    await neon?.close();
    await pg?.close();
  });

  it('submit → 201, then list and detail read it back (through the stand-in)', async () => {
    const { key } = await t.member('member');
    const submitted = tool('Listed');
    const res = await t.request('/api/v1/submit-site', { method: 'POST', key, json: submitted });
    expect(res.status).toBe(201);
    const { site_id } = (await res.json()) as { site_id: string };
    const list = (await (await t.request('/api/v1/sites?limit=20', { key })).json()) as {
      sites: Array<{ site_id: string; url: string }>;
      total: number;
    };
    expect(list.total).toBe(1);
    expect(list.sites[0]).toMatchObject({ site_id, url: submitted.url });
    const detail = await t.request(`/api/v1/sites/${site_id}`, { key });
    expect(detail.status).toBe(200);
    expect(await detail.json()).toMatchObject({ site_id, status: 'queued', name: submitted.name });
    expect(neon.requestCount).toBeGreaterThan(neonRequestsAtStart);
  });

  it('submit without membership → 402 with a checkout link; the pending record is readable by id', async () => {
    const { key } = await t.member('none');
    const res = await t.request('/api/v1/submit-site', { method: 'POST', key, json: tool('Unpaid') });
    expect(res.status).toBe(402);
    const body = (await res.json()) as { site_id: string; checkout_url: string; reason: string };
    expect(body.reason).toBe('no_membership');
    expect(body.checkout_url).toMatch(/^http/);
    const detail = await t.request(`/api/v1/sites/${body.site_id}`, { key });
    expect(await detail.json()).toMatchObject({ site_id: body.site_id, status: 'pending_payment' });
  });

  it('8 concurrent submits with 5 of the daily quota left → exactly five 201 and three 402 quota_exceeded', async () => {
    const { key, accountId } = await t.member('member');
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => t.request('/api/v1/submit-site', { method: 'POST', key, json: tool('Quota') })),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 201, 201, 201, 201, 402, 402, 402]);
    const refused = await Promise.all(
      responses.filter((r) => r.status === 402).map((r) => r.json() as Promise<{ reason: string }>),
    );
    expect(refused.map((r) => r.reason)).toEqual(['quota_exceeded', 'quota_exceeded', 'quota_exceeded']);
    const [row] = await queryRows<{ used: number; queued: number | string }>(
      t.deps.db,
      sql`SELECT (SELECT used FROM quota_usage WHERE account_id = ${accountId}) AS used,
          (SELECT count(*) FROM sites WHERE account_id = ${accountId}) AS queued`,
    );
    expect(Number(row?.used)).toBe(5);
    expect(Number(row?.queued)).toBe(5);
  });

  it('6 concurrent submits of one URL → one 201 and five 409 already_submitted; the quota is charged once', async () => {
    const { key, accountId } = await t.member('member');
    const same = tool('Same');
    const responses = await Promise.all(
      Array.from({ length: 6 }, () => t.request('/api/v1/submit-site', { method: 'POST', key, json: same })),
    );
    expect(responses.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    for (const r of responses.filter((x) => x.status === 409)) {
      expect(((await r.json()) as { error: { code: string } }).error.code).toBe('already_submitted');
    }
    const [row] = await queryRows<{ used: number; sites: number | string }>(
      t.deps.db,
      sql`SELECT (SELECT used FROM quota_usage WHERE account_id = ${accountId}) AS used,
          (SELECT count(*) FROM sites WHERE canonical_url IN (SELECT canonical_url FROM sites WHERE account_id = ${accountId})) AS sites`,
    );
    expect(Number(row?.used)).toBe(1);
    expect(Number(row?.sites)).toBe(1);
  });

  it('8 concurrent retries of a crawl_failed site → one 202 and seven 409 invalid_state; one retry counted', async () => {
    const { key } = await t.member('member');
    const res = await t.request('/api/v1/submit-site', { method: 'POST', key, json: tool('Retried') });
    const { site_id } = (await res.json()) as { site_id: string };
    await queryRows(
      t.deps.db,
      sql`UPDATE sites SET status = 'crawl_failed', crawl_attempts = 3, status_note = 'test' WHERE id = ${site_id}::uuid`,
    );
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => t.request(`/api/v1/sites/${site_id}/retry`, { method: 'POST', key })),
    );
    expect(responses.map((r) => r.status).sort()).toEqual([202, 409, 409, 409, 409, 409, 409, 409]);
    for (const r of responses.filter((x) => x.status === 409)) {
      expect(((await r.json()) as { error: { code: string } }).error.code).toBe('invalid_state');
    }
    const [row] = await queryRows<{ manual_retries: number; retried: number | string }>(
      t.deps.db,
      sql`SELECT manual_retries, (SELECT count(*) FROM site_history WHERE site_id = ${site_id}::uuid AND from_status = 'crawl_failed') AS retried
          FROM sites WHERE id = ${site_id}::uuid`,
    );
    expect({ counted: Number(row?.manual_retries), transitions: Number(row?.retried) }).toEqual({
      counted: 1,
      transitions: 1,
    });
  });
});
