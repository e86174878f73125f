// The weekly statistics e-mail (docs/stats.md "Weekly e-mail"): one per owner of a live tool and week, however
// often the job is delivered; an opt-out link that works without signing in; off by default locally.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../../src/db/client';
import { rollUpStats } from '../../../src/stats/roll-up';
import type { Mailer } from '../../../src/adapters/mail/types';
import { createOutboxMailer } from '../../../src/adapters/mail/outbox';
import { createLogger } from '../../../src/log';
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../../helpers/test-app';
import { seedOwnedTool } from '../../helpers/owned-tools';

let now = new Date('2026-11-25T09:00:00Z'); // a Wednesday: the week reported is 2026-11-16 .. 2026-11-22
let failMail = false;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    env: { STATS_WEEKLY_MAIL: 'true' },
    overrides: { now: () => now },
  });
  // The outbox mailer of local mode, made to fail on demand.
  const outbox = createOutboxMailer(t.deps.db, createLogger('silent'));
  const mail: Mailer = {
    kind: 'outbox',
    send: (m) => (failMail ? Promise.reject(new Error('mail API down')) : outbox.send(m)),
  };
  t.deps.mail = mail;
});
afterAll(() => t?.close());

const runJob = () => t.request('/api/jobs/stats-report', { method: 'POST', key: ADMIN_TOKEN, json: {} });
const mailsTo = (to: string) =>
  queryRows<{ subject: string; text: string }>(
    t.deps.db,
    sql`SELECT subject, text FROM mail_outbox WHERE "to" = ${to} ORDER BY id`,
  );

async function ownerWithTool(name: string, status: 'live' | 'rejected' = 'live') {
  const owner = await t.member();
  const full = `${name} ${crypto.randomUUID().slice(0, 4)}`;
  const tool = await seedOwnedTool(t.deps.db, owner.accountId, { name: full, status });
  return { ...owner, tool: { ...tool, name: full } };
}

const tokenOf = (text: string) => /\/stats\/unsubscribe\/([0-9a-f-]{36})$/m.exec(text)?.[1] ?? '';

describe('the weekly job', () => {
  it('mails each owner of a live tool once per week, with each tool of the week before and an opt-out link', async () => {
    const owner = await ownerWithTool('Weekly Alpha');
    const secondName = `Weekly Beta ${crypto.randomUUID().slice(0, 4)}`;
    const second = await seedOwnedTool(t.deps.db, owner.accountId, { name: secondName });
    const notLive = await ownerWithTool('Weekly Rejected', 'rejected');
    for (const [day, views, clicks] of [
      ['2026-11-16', 30, 3],
      ['2026-11-22', 10, 1],
      ['2026-11-23', 999, 99],
      ['2026-11-15', 500, 50],
    ] as const) {
      await queryRows(
        t.deps.db,
        sql`INSERT INTO stat_counters (day, slug, counter, n) VALUES (${day}::date, ${owner.tool.slug}, 'views', ${views}), (${day}::date, ${owner.tool.slug}, 'clicks', ${clicks})`,
      );
    }
    await queryRows(
      t.deps.db,
      sql`INSERT INTO stat_counters (day, slug, counter, n) VALUES ('2026-11-20', ${owner.tool.slug}, 'impressions_standard', 160)`,
    );
    await rollUpStats(t.deps, { days: ['2026-11-15', '2026-11-16', '2026-11-20', '2026-11-22', '2026-11-23'] });

    const res = await runJob();
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true, outcome: 'reported', week: '2026-11-23' });
    const [mail, ...more] = await mailsTo(owner.email);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe('Your week on tooldir: 40 views, 4 clicks');
    const token = tokenOf(mail!.text);
    expect(mail!.text).toBe(
      [
        'Your listings from 2026-11-16 to 2026-11-22 (UTC days):',
        '',
        owner.tool.name,
        `  40 views, 4 clicks, 160 card impressions, 0 badge loads; click-through 2 %`,
        `  http://tooldir.test/tools/${owner.tool.slug}`,
        secondName,
        '  0 views, 0 clicks, 0 card impressions, 0 badge loads; click-through –',
        `  http://tooldir.test/tools/${second.slug}`,
        '',
        'Day by day: http://tooldir.test/account, GET /api/v1/sites/{site_id}/stats or `tooldir stats <site_id>`.',
        'Counted without cookies and without storing anything about visitors; bots are not counted.',
        '',
        `You get this e-mail once a week because you have a live tool on tooldir. Stop it: http://tooldir.test/stats/unsubscribe/${token}`,
      ].join('\n'),
    );
    expect(await mailsTo(notLive.email)).toEqual([]);
  });

  it('sends nothing twice for a week, also when deliveries overlap', async () => {
    const owner = await ownerWithTool('Weekly Once');
    const results = await Promise.all([runJob(), runJob(), runJob()]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(await runJob().then((r) => r.json())).toMatchObject({ outcome: 'reported', sent: 0 });
    expect(await mailsTo(owner.email)).toHaveLength(1);
  });

  it('answers an error when a mail fails, and the retry sends exactly the missing one', async () => {
    now = new Date('2026-12-02T09:00:00Z');
    const owner = await ownerWithTool('Weekly Retry');
    failMail = true;
    const failed = await runJob();
    failMail = false;
    expect(failed.status).toBe(500);
    expect(await mailsTo(owner.email)).toEqual([]);
    expect((await runJob()).status).toBe(200);
    expect(await mailsTo(owner.email)).toHaveLength(1);
    expect((await runJob()).status).toBe(200);
    expect(await mailsTo(owner.email)).toHaveLength(1);
  });
});

describe('the opt-out link', () => {
  it('shows the state on GET without changing it, stops on POST, and can turn the e-mail back on', async () => {
    now = new Date('2026-12-09T09:00:00Z');
    const owner = await ownerWithTool('Weekly Opt Out');
    await runJob();
    const token = tokenOf((await mailsTo(owner.email))[0]!.text);
    const page = await t.request(`/stats/unsubscribe/${token}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    const body = await page.text();
    expect(body).toContain('<meta name="robots" content="noindex">');
    expect(body).toContain('<button type="submit" name="choice" value="stop">Stop the weekly e-mail</button>');

    const cross = await t.request(`/stats/unsubscribe/${token}`, {
      method: 'POST',
      body: new URLSearchParams({ choice: 'stop' }),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
    });
    expect(cross.status).toBe(403);
    const stop = await t.request(`/stats/unsubscribe/${token}`, {
      method: 'POST',
      body: new URLSearchParams({ choice: 'stop' }),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://tooldir.test' },
    });
    expect(stop.status).toBe(200);
    expect(await stop.text()).toContain('You no longer get the weekly e-mail about your listings.');

    now = new Date('2026-12-16T09:00:00Z');
    await runJob();
    expect(await mailsTo(owner.email)).toHaveLength(1);

    const resume = await t.request(`/stats/unsubscribe/${token}`, {
      method: 'POST',
      body: new URLSearchParams({ choice: 'resume' }),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(await resume.text()).toContain('You get one e-mail a week');
    await runJob();
    expect(await mailsTo(owner.email)).toHaveLength(2);
  });

  it('is the 404 page for a token that is not one', async () => {
    for (const token of [crypto.randomUUID(), 'not-a-token', "x' OR 1=1"]) {
      expect((await t.request(`/stats/unsubscribe/${encodeURIComponent(token)}`)).status, token).toBe(404);
      expect(
        (await t.request(`/stats/unsubscribe/${encodeURIComponent(token)}`, { method: 'POST' })).status,
        token,
      ).toBe(404);
    }
  });
});

describe('local mode', () => {
  it('sends no weekly e-mail unless STATS_WEEKLY_MAIL is set', async () => {
    const local = await createTestApp({ db: { db: t.deps.db, close: async () => {} } });
    const res = await local.request('/api/jobs/stats-report', { method: 'POST', key: ADMIN_TOKEN, json: {} });
    expect(await res.json()).toEqual({ ok: true, outcome: 'skipped', reason: 'STATS_WEEKLY_MAIL is off' });
    await local.close();
  });
});
