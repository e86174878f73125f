// In local mode (CRAWL_ALLOW_PRIVATE=true) the monthly re-check fetches a `<name>.localhost` HTTP proof again, on the
// port its verify call gave, from a loopback site: a removed file is mailed about, then lapses after the grace; a file
// put back clears the failure. Without local mode such a proof is left alone. Time moves by the app's clock.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../../../src/db/client';
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../../../helpers/test-app';
import { startFixtureSite, type FixtureSite } from '../../../helpers/fixture-site';
import { localOnlyCrawl } from '../../../helpers/local-proof-network';
import { noTxt } from '../../../helpers/domain-fixtures';

const DAY = 86_400_000;
const files = new Map<string, string>(); // host (without port) -> body of the proof file
let clock = new Date();
let site: FixtureSite;
let local: TestApp;
let hosted: TestApp;
const crawl = localOnlyCrawl();

beforeAll(async () => {
  site = await startFixtureSite({
    '/.well-known/tooldir-verification.txt': (request, response) => {
      const body = files.get(String(request.headers.host).split(':')[0]!);
      if (body === undefined) response.writeHead(404).end('no');
      else response.writeHead(200, { 'content-type': 'text/plain' }).end(body);
    },
  });
  const overrides = { txt: noTxt, crawl, now: () => clock };
  local = await createTestApp({ env: { CRAWL_ALLOW_PRIVATE: 'true' }, overrides });
  hosted = await createTestApp({ overrides });
});
afterAll(async () => {
  await local?.close();
  await hosted?.close();
  await site?.close();
  expect(crawl.refused).toEqual([]);
});
beforeEach(() => {
  clock = new Date();
});

const later = (days: number) => {
  clock = new Date(clock.getTime() + days * DAY);
};
const sweep = async (t: TestApp) => {
  const res = await t.request('/api/jobs/sweep', { method: 'POST', key: ADMIN_TOKEN, json: {} });
  expect(res.status).toBe(200);
};
const statusOf = async (t: TestApp, key: string, domain: string) =>
  (await (await t.request('/api/v1/domains', { key })).json()).domains.find(
    (d: { domain: string }) => d.domain === domain,
  )?.status;
const subjectsTo = async (t: TestApp, email: string) =>
  (
    await queryRows<{ subject: string }>(
      t.deps.db,
      sql`SELECT subject FROM mail_outbox WHERE "to" = ${email} ORDER BY created_at`,
    )
  ).map((m) => m.subject);

/** A `<name>.localhost` domain proved by its file on the loopback site's port. */
async function locallyProven(t: TestApp) {
  const domain = `maker-${crypto.randomUUID().slice(0, 8)}.localhost`;
  const m = await t.member();
  const added = await t.request('/api/v1/domains', { method: 'POST', key: m.key, json: { domain } });
  expect(added.status).toBe(201);
  files.set(domain, (await added.json()).token);
  const port = site.port;
  const verified = await t.request(`/api/v1/domains/${domain}/verify`, {
    method: 'POST',
    key: m.key,
    json: { method: 'http', port },
  });
  expect(verified.status).toBe(200);
  return { m, domain };
}

describe('the monthly re-check of local proofs', () => {
  it('a removed file is mailed about, then lapses after the 14-day grace', async () => {
    const { m, domain } = await locallyProven(local);
    later(31);
    await sweep(local);
    expect(await statusOf(local, m.key, domain)).toBe('verified'); // the file is still there: passes
    files.delete(domain);
    later(31);
    await sweep(local);
    expect(await statusOf(local, m.key, domain)).toBe('verified');
    expect((await subjectsTo(local, m.email)).some((s) => s.includes(domain))).toBe(true);
    later(15);
    await sweep(local);
    expect(await statusOf(local, m.key, domain)).toBe('pending');
    expect(await subjectsTo(local, m.email)).toHaveLength(2);
  });

  it('a file put back within the grace clears the failure', async () => {
    const { m, domain } = await locallyProven(local);
    const token = files.get(domain)!;
    files.delete(domain);
    later(31);
    await sweep(local);
    files.set(domain, token);
    later(2);
    await sweep(local);
    later(20);
    await sweep(local);
    expect(await statusOf(local, m.key, domain)).toBe('verified');
    const [proof] = await queryRows<{ failing: boolean }>(
      local.deps.db,
      sql`SELECT failing_since IS NOT NULL AS failing FROM domain_proofs WHERE domain = ${domain}`,
    );
    expect(proof).toEqual({ failing: false });
  });

  it('without local mode a .localhost proof is not fetched by the sweep', async () => {
    // Made in local mode, then read by an app that is not: the sweep must leave it alone (it could reach nothing).
    const { m, domain } = await locallyProven(local);
    await queryRows(
      hosted.deps.db,
      sql`INSERT INTO accounts (id, email) VALUES (${m.accountId}::uuid, ${m.email}) ON CONFLICT DO NOTHING`,
    );
    const [row] = await queryRows<{ token: string; local_port: number }>(
      local.deps.db,
      sql`SELECT token, local_port FROM domain_proofs WHERE domain = ${domain}`,
    );
    await queryRows(
      hosted.deps.db,
      sql`INSERT INTO domain_proofs (id, account_id, domain, token, status, method, verified_at, checked_at, local_port)
          VALUES (${crypto.randomUUID()}::uuid, ${m.accountId}::uuid, ${domain}, ${row!.token}, 'verified', 'http',
            now() - interval '40 days', now() - interval '40 days', ${row!.local_port})`,
    );
    files.delete(domain);
    later(31);
    await sweep(hosted);
    const [after] = await queryRows<{ checked_recently: boolean }>(
      hosted.deps.db,
      sql`SELECT checked_at > now() - interval '1 day' AS checked_recently FROM domain_proofs WHERE domain = ${domain}`,
    );
    expect(after).toEqual({ checked_recently: false });
  });
});
