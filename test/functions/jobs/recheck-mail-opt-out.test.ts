// The health mails are not transactional (docs/health.md "Mails and the opt-out"): each carries an opt-out link and
// RFC 8058 List-Unsubscribe headers; a one-click POST of that link or the account page's switch turns them off, and
// then no health mail is sent while the site.health_changed webhook row is written as before; turned on again, the
// next notice is mailed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, ADMIN_TOKEN, type TestApp } from '../../helpers/test-app';
import { startHealthSites, type HealthSites } from '../../helpers/health-sites';
import { seedOwnedTool } from '../../helpers/owned-tools';
import { queryRows } from '../../../src/db/client';
import { csrfOf, signedInMember } from '../pages/account/account-client';

let t: TestApp;
let sites: HealthSites;

beforeAll(async () => {
  sites = await startHealthSites();
  sites.set('new-home', { kind: 'up' });
  t = await createTestApp({ env: { CRAWL_ALLOW_PRIVATE: 'true' }, overrides: { crawl: sites } });
}, 240_000);
afterAll(async () => {
  expect(sites.violations).toEqual([]);
  await t?.close();
  await sites?.close();
});

/** A live tool of the account whose site now redirects to another domain: its next check is a `moved` notice. */
async function movingTool(accountId: string, name: string) {
  sites.set(name, { kind: 'redirect', to: `http://new-home.localhost:${sites.port}/` });
  const tool = await seedOwnedTool(t.deps.db, accountId, { name: `Moving ${name}`, url: sites.urlOf(name) });
  await t.deps.db.execute(sql`INSERT INTO webhooks (id, account_id, slot, url, events, secret)
    VALUES (gen_random_uuid(), ${accountId}::uuid, 1, 'https://hooks.example/h', ARRAY['site.health_changed'], 'whsec_x')
    ON CONFLICT DO NOTHING`);
  return tool;
}
const recheck = async (id: string) => {
  const res = await t.request('/api/jobs/recheck', { method: 'POST', key: ADMIN_TOKEN, json: { site_ids: [id] } });
  expect(res.status).toBe(200);
};
const mailsTo = (to: string) =>
  queryRows<{ subject: string; text: string; headers: Record<string, string> | null }>(
    t.deps.db,
    sql`SELECT subject, text, headers FROM mail_outbox WHERE "to" = ${to} AND subject LIKE 'Moving %' ORDER BY id`,
  );
const webhookRows = async (siteId: string) =>
  (
    await queryRows<{ n: number }>(
      t.deps.db,
      sql`SELECT count(*)::int AS n FROM webhook_deliveries WHERE site_id = ${siteId}::uuid AND event_type = 'site.health_changed'`,
    )
  )[0]!.n;
const healthMailsOn = async (accountId: string) =>
  (
    await queryRows<{ on: boolean }>(
      t.deps.db,
      sql`SELECT health_mails AS on FROM accounts WHERE id = ${accountId}::uuid`,
    )
  )[0]!.on;

describe('health mails honour the opt-out', () => {
  it('a mail carries its one-click link; after a one-click POST none is sent, the webhook still is', async () => {
    const { m } = await signedInMember(t, 'member');
    const first = await movingTool(m.accountId, 'first');
    await recheck(first.id);
    const [mail] = await mailsTo(m.email);
    expect(mail!.subject).toMatch(/another domain/);
    const link = /Stop them: (http:\/\/tooldir\.test\/health-mails\/[0-9a-f-]{36})/.exec(mail!.text)![1]!;
    expect(mail!.headers).toEqual({
      'List-Unsubscribe': `<${link}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
    expect(await webhookRows(first.id)).toBe(1);

    // A mail scanner's GET changes nothing; a stranger's token is not found.
    const path = new URL(link).pathname;
    const shown = await t.request(path);
    expect(shown.status).toBe(200);
    expect(await shown.text()).toContain('Stop these e-mails');
    expect(await healthMailsOn(m.accountId)).toBe(true);
    expect((await t.request(`/health-mails/${crypto.randomUUID()}`, { method: 'POST' })).status).toBe(404);
    expect((await t.request('/health-mails/not-a-token')).status).toBe(404);

    // RFC 8058: the mail client POSTs List-Unsubscribe=One-Click, with no Origin and no cookie.
    const oneClick = await t.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.status).toBe(200);
    expect(await healthMailsOn(m.accountId)).toBe(false);
    // A forged cross-site form is refused and changes nothing.
    const forged = await t.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
      body: 'choice=resume',
    });
    expect(forged.status).toBe(403);
    expect(await healthMailsOn(m.accountId)).toBe(false);

    const second = await movingTool(m.accountId, 'second');
    await recheck(second.id);
    expect((await mailsTo(m.email)).map((row) => row.subject)).toEqual([mail!.subject]);
    expect(await webhookRows(second.id)).toBe(1);
  });

  it("the account page's switch turns them off and on (the session's CSRF token; refused without)", async () => {
    const { m, client } = await signedInMember(t, 'member');
    const { html } = await client.page('/account');
    expect(html).toContain('Website check e-mails');
    const csrf = csrfOf(html);
    const origin = { origin: 'http://tooldir.test' };
    const refused = await client.request('/account/health-mails', { form: { choice: 'off' }, headers: origin });
    expect(refused.status).toBe(403);
    expect(await healthMailsOn(m.accountId)).toBe(true);
    const off = await client.request('/account/health-mails', {
      form: { _csrf: csrf, choice: 'off' },
      headers: origin,
    });
    expect(off.status).toBe(303);
    expect(off.headers.get('location')).toBe('/account#health-mails');
    expect(await healthMailsOn(m.accountId)).toBe(false);
    expect((await client.page('/account')).html).toContain('Send these e-mails again');

    const quiet = await movingTool(m.accountId, 'quiet');
    await recheck(quiet.id);
    expect(await mailsTo(m.email)).toEqual([]);
    expect(await webhookRows(quiet.id)).toBe(1);

    const on = await client.request('/account/health-mails', { form: { _csrf: csrf, choice: 'on' }, headers: origin });
    expect(on.status).toBe(303);
    expect(await healthMailsOn(m.accountId)).toBe(true);
    const loud = await movingTool(m.accountId, 'loud');
    await recheck(loud.id);
    expect((await mailsTo(m.email)).map((row) => row.subject)).toEqual(['Moving loud now leads to another domain']);
    expect(await webhookRows(loud.id)).toBe(1);
  });
});
