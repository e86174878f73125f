// The monthly re-check of domain proofs, run by the sweep (POST /api/jobs/sweep): a removed DNS record is mailed about
// at once and lapses after the 14-day grace; a record put back clears the failure; an e-mail proof lapses after a year.
// Time moves by the app's clock (deps.now), never by sleeping; TXT answers come from an injected table.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../../../src/db/client';
import { ADMIN_TOKEN, createTestApp, uniqueName, type TestApp } from '../../../helpers/test-app';
import { seedOwnedTool } from '../../../helpers/owned-tools';
import { txtTable } from '../../../helpers/domain-fixtures';

const DAY = 86_400_000;
const records: Record<string, string[]> = {};
let clock = new Date();
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ overrides: { txt: txtTable(records), now: () => clock } });
});
afterAll(() => t.close());
// Proofs are stamped by the database's clock: each test starts the app's clock there.
beforeEach(() => {
  clock = new Date();
});

const later = (days: number) => {
  clock = new Date(clock.getTime() + days * DAY);
};
const sweep = async () => {
  const res = await t.request('/api/jobs/sweep', { method: 'POST', key: ADMIN_TOKEN, json: {} });
  expect(res.status).toBe(200);
  return res.json();
};
const domainOf = async (key: string, domain: string) => {
  const { domains } = await (await t.request('/api/v1/domains', { key })).json();
  return domains.find((d: { domain: string }) => d.domain === domain);
};
const mailsTo = (email: string) =>
  queryRows<{ subject: string; text: string }>(
    t.deps.db,
    sql`SELECT subject, text FROM mail_outbox WHERE "to" = ${email} ORDER BY created_at`,
  );

async function dnsProvenMaker() {
  const domain = `recheck-${crypto.randomUUID().slice(0, 8)}.com`;
  const m = await t.member();
  const { token } = await (await t.request('/api/v1/domains', { method: 'POST', key: m.key, json: { domain } })).json();
  records[`_tooldir.${domain}`] = [`tooldir-verification=${token}`];
  expect(
    (await t.request(`/api/v1/domains/${domain}/verify`, { method: 'POST', key: m.key, json: { method: 'dns' } }))
      .status,
  ).toBe(200);
  const tool = await seedOwnedTool(t.deps.db, m.accountId, {
    name: uniqueName('Rechecked'),
    url: `https://${domain}/`,
  });
  return { m, domain, token, tool };
}
const marked = async (slug: string) =>
  (await (await t.request(`/api/v1/tools/${slug}`)).json()).verified_owner === true;

describe('the monthly re-check', () => {
  it('lapses a removed record after the 14-day grace, mailing first, and the mark goes with it', async () => {
    const { m, domain, tool } = await dnsProvenMaker();
    delete records[`_tooldir.${domain}`];

    later(10); // not due yet: a passing proof is checked monthly
    await sweep();
    expect(await domainOf(m.key, domain)).toMatchObject({ status: 'verified', failing_since: null });

    later(21); // 31 days after the proof: due, fails, the grace starts and the owner is told
    expect((await sweep()).rechecked).toBeGreaterThanOrEqual(1);
    const failing = await domainOf(m.key, domain);
    expect(failing).toMatchObject({ status: 'verified', method: 'dns' });
    expect(Date.parse(failing.failing_since)).toBe(clock.getTime());
    expect(Date.parse(failing.lapses_at)).toBe(clock.getTime() + 14 * DAY);
    const [first] = await mailsTo(m.email);
    expect(first!.subject).toBe(`Your proof of ${domain} failed its monthly check`);
    expect(first!.text).toContain('record not found');
    expect(await marked(tool.slug)).toBe(true);

    later(13); // still in the grace: checked daily, no second mail
    await sweep();
    expect((await domainOf(m.key, domain)).status).toBe('verified');
    expect(await mailsTo(m.email)).toHaveLength(1);

    later(1.5); // past the grace
    const report = await sweep();
    expect(report.lapsed).toBeGreaterThanOrEqual(1);
    expect(await domainOf(m.key, domain)).toMatchObject({
      status: 'pending',
      method: null,
      verified_at: null,
      failing_since: null,
    });
    expect(await marked(tool.slug)).toBe(false);
    const mails = await mailsTo(m.email);
    expect(mails.map((x) => x.subject)).toEqual([
      `Your proof of ${domain} failed its monthly check`,
      `Your proof of ${domain} lapsed`,
    ]);
  });

  it('clears the failure when the record is back within the grace', async () => {
    const { m, domain, token } = await dnsProvenMaker();
    delete records[`_tooldir.${domain}`];
    later(31);
    await sweep();
    expect((await domainOf(m.key, domain)).failing_since).not.toBeNull();
    records[domain] = [`tooldir-verification=${token}`]; // back, at the domain itself this time
    later(1);
    await sweep();
    expect(await domainOf(m.key, domain)).toMatchObject({ status: 'verified', failing_since: null, lapses_at: null });
    later(20);
    await sweep();
    expect((await domainOf(m.key, domain)).status).toBe('verified');
  });

  it('acts once when two sweeps run at the same time', async () => {
    const { m, domain } = await dnsProvenMaker();
    delete records[`_tooldir.${domain}`];
    later(31);
    await Promise.all([sweep(), sweep(), sweep()]);
    expect(await mailsTo(m.email)).toHaveLength(1);
  });

  it('lapses an e-mail proof a year after it was made', async () => {
    const domain = `mailproof-${crypto.randomUUID().slice(0, 8)}.com`;
    const m = await t.member();
    await t.request('/api/v1/domains', { method: 'POST', key: m.key, json: { domain } });
    expect(
      (
        await t.request(`/api/v1/domains/${domain}/verify`, {
          method: 'POST',
          key: m.key,
          json: { method: 'email', email: `me@${domain}` },
        })
      ).status,
    ).toBe(202);
    const [sent] = await mailsTo(`me@${domain}`);
    const code = /Code: (\d+)/.exec(sent!.text)![1];
    expect(
      (
        await t.request(`/api/v1/domains/${domain}/verify`, {
          method: 'POST',
          key: m.key,
          json: { method: 'email', code },
        })
      ).status,
    ).toBe(200);
    const tool = await seedOwnedTool(t.deps.db, m.accountId, { name: uniqueName('Mailed'), url: `https://${domain}/` });
    expect(await marked(tool.slug)).toBe(true);

    // The proof's year is counted from the database's clock; the sweep's clock is moved past it.
    later(364);
    await sweep();
    expect((await domainOf(m.key, domain)).status).toBe('verified');
    later(400);
    await sweep();
    expect(await domainOf(m.key, domain)).toMatchObject({ status: 'pending', method: null, expires_at: null });
    expect((await mailsTo(m.email)).map((x) => x.subject)).toContain(`Your proof of ${domain} lapsed`);
  });
});
