// Progress mails honour the account's opt-out; receipts, refunds and failed crawls do not (src/catalog/mail-kinds.ts,
// docs/account.md "Mail"). The one-click link (RFC 8058) and the /account/mail setting, through the public surface.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { moveSite } from '../../helpers/submission-states';
import { notifyCrawlFailedSite } from '../../../src/pipeline/notify-crawl-failed';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { REFUND_ON_REJECTION: 'true' } });
});
afterAll(() => t.close());

const unique = () => crypto.randomUUID().slice(0, 8);
const mailsTo = (email: string) =>
  queryRows<{ subject: string; text: string; headers: Record<string, string> | string | null }>(
    t.deps.db,
    sql`SELECT subject, text, headers FROM mail_outbox WHERE "to" = ${email} ORDER BY id`,
  );
const parsed = (h: Record<string, string> | string | null) =>
  typeof h === 'string' ? (JSON.parse(h) as Record<string, string>) : h;
const form = (fields: Record<string, string>, origin = 'http://tooldir.test') => ({
  method: 'POST',
  body: new URLSearchParams(fields),
  headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
});

async function queuedSite(key: string): Promise<string> {
  const res = await t.request('/api/v1/submit-site', {
    method: 'POST',
    key,
    json: { name: `Mail Tool ${unique()}`, url: `https://mail-${unique()}.example/` },
  });
  expect(res.status).toBe(201);
  return (await res.json()).site_id;
}

describe('progress mails and the opt-out', () => {
  it('a published mail carries the one-click link and headers; after one click, progress mails stop but a failed crawl is still mailed', async () => {
    const member = await t.member('member');
    const live = await queuedSite(member.key);
    await moveSite(t.deps, live, 'live');
    const [published] = await mailsTo(member.email);
    expect(published!.subject).toMatch(/ is live on tooldir$/);
    expect(published!.text).toContain(`Your submission's page: http://tooldir.test/account/submissions/${live}`);
    const link = /(http:\/\/tooldir\.test\/mail\/unsubscribe\/[0-9a-f-]{36})/.exec(published!.text)![1]!;
    expect(parsed(published!.headers)).toEqual({
      'List-Unsubscribe': `<${link}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
    const path = new URL(link).pathname;

    // GET changes nothing (mail scanners open links); a cross-site POST is refused; a bare same-origin POST stops.
    expect(await (await t.request(path)).text()).toContain('data-status-mail="on"');
    expect((await t.request(path, form({ choice: 'stop' }, 'https://evil.example'))).status).toBe(403);
    expect(await (await t.request(path)).text()).toContain('data-status-mail="on"');
    const stopped = await t.request(path, { method: 'POST', headers: { origin: 'http://tooldir.test' } });
    expect(stopped.status).toBe(200);
    expect(await stopped.text()).toContain('data-status-mail="off"');
    expect((await t.request('/mail/unsubscribe/not-a-token')).status).toBe(404);
    expect((await t.request(`/mail/unsubscribe/${crypto.randomUUID()}`, form({}))).status).toBe(404);

    const rejected = await queuedSite(member.key);
    await moveSite(t.deps, rejected, 'rejected', { reason: 'Off topic' });
    const failed = await queuedSite(member.key);
    await moveSite(t.deps, failed, 'crawl_failed');
    await notifyCrawlFailedSite(t.deps, failed);
    const after = await mailsTo(member.email);
    expect(after.map((m) => m.subject)).toEqual([
      published!.subject,
      expect.stringMatching(/^We could not read Mail Tool .+'s website$/),
    ]);

    // Resume from the same link.
    await t.request(path, form({ choice: 'resume' }));
    const again = await queuedSite(member.key);
    await moveSite(t.deps, again, 'rejected', { reason: 'Still off topic' });
    expect((await mailsTo(member.email)).at(-1)!.text).toContain('Reason: Still off topic');
  });

  it('the opt-out belongs to one account: another account still gets its progress mails', async () => {
    const quiet = await t.member('member');
    const loud = await t.member('member');
    const first = await queuedSite(quiet.key);
    await moveSite(t.deps, first, 'live');
    const link = /\/mail\/unsubscribe\/[0-9a-f-]{36}/.exec((await mailsTo(quiet.email))[0]!.text)![0];
    await t.request(link, { method: 'POST', headers: { origin: 'http://tooldir.test' } });
    const theirs = await queuedSite(loud.key);
    await moveSite(t.deps, theirs, 'live');
    expect(await mailsTo(loud.email)).toHaveLength(1);
    const second = await queuedSite(quiet.key);
    await moveSite(t.deps, second, 'live');
    expect(await mailsTo(quiet.email)).toHaveLength(1);
    const [settings] = await queryRows<{ n: number }>(
      t.deps.db,
      sql`SELECT count(*)::int AS n FROM account_mail_settings WHERE status_mail_off_at IS NOT NULL AND account_id = ${loud.accountId}::uuid`,
    );
    expect(Number(settings!.n)).toBe(0);
  });
});
