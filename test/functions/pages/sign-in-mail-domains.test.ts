// Issue 27: the disposable-address and one-account-per-address rules see an address's domain as mail does
// (UTS #46: full-width letters, ideographic full stops and the root's trailing dot folded; src/accounts/mail-domain.ts),
// and an address with an empty domain label is no address. Through the sign-in page, as a person types them.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client';
import { runRequestedKeyBackfill } from '../../../src/submissions/requested-key-backfill';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { PageClient, csrfOf, latestCode, outboxFor, uniqueIp } from './account-client';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const local = () => `maker-${crypto.randomUUID().slice(0, 6)}`;
/** Rows anything at sign-in wrote for addresses starting with `prefix`: codes, send budgets, mails, accounts. */
async function writtenFor(prefix: string) {
  const like = `${prefix}@%`;
  const [row] = await queryRows<{ codes: number; budgets: number; mails: number; accounts: number }>(
    t.deps.db,
    sql`SELECT (SELECT count(*)::int FROM sign_in_codes WHERE email LIKE ${like}) AS codes,
               (SELECT count(*)::int FROM sign_in_send_budgets WHERE email LIKE ${like}) AS budgets,
               (SELECT count(*)::int FROM mail_outbox WHERE "to" LIKE ${like}) AS mails,
               (SELECT count(*)::int FROM accounts WHERE email LIKE ${like}) AS accounts`,
  );
  return row;
}

async function askForCode(email: string) {
  const client = new PageClient(t, uniqueIp());
  const page = await client.page('/account/sign-in');
  const res = await client.request('/account/sign-in', { form: { _csrf: csrfOf(page.html), email } });
  return { client, res, html: await res.text() };
}

describe('a disposable domain however its name is typed', () => {
  it.each([
    ['full-width letters', 'ｍａｉｌｉｎａｔｏｒ.ｃｏｍ'],
    ['full-width capitals and a full-width full stop', 'ＭＡＩＬＩＮＡＴＯＲ\uff0eＣＯＭ'],
    ['an ideographic full stop', 'mailinator\u3002com'],
    ['a half-width ideographic full stop', 'yopmail\uff61com'],
    ["the root's trailing dot", 'mailinator.com.'],
    ['a subdomain in full-width letters', 'ｉｎｂｏｘ.yopmail.com'],
  ])('%s is refused as disposable, and nothing is written or mailed', async (_label, domain) => {
    const name = local();
    const { res, html } = await askForCode(`${name}@${domain}`);
    expect(res.status).toBe(400);
    expect(html).toMatch(/<p class="error" role="alert">Addresses at [a-z.]*(mailinator|yopmail)\.com are disposable/);
    expect(await writtenFor(name)).toEqual({ codes: 0, budgets: 0, mails: 0, accounts: 0 });
    expect(res.headers.getSetCookie().some((c) => c.startsWith('tooldir_signin_challenge='))).toBe(false);
  });
});

describe('an empty domain label', () => {
  it.each(['example..com', '.example.com', 'example.com..', 'example\u3002\u3002com'])(
    '%s is not an address: 400 on the page, nothing written',
    async (domain) => {
      const name = local();
      const { res, html } = await askForCode(`${name}@${domain}`);
      expect(res.status).toBe(400);
      expect(html).toContain('That does not look like an e-mail address.');
      expect(await writtenFor(name)).toEqual({ codes: 0, budgets: 0, mails: 0, accounts: 0 });
    },
  );
});

describe('one account per mailbox', () => {
  it('signing in as ada@ＥＸＡＭＰＬＥ。com. reaches the account of ada@example.com, and the code goes to that one address', async () => {
    const name = local();
    const plain = `${name}@example.com`;
    const first = await askForCode(plain);
    expect(first.res.status).toBe(200);
    const { res } = await first.client.submitCode(plain, await latestCode(t, plain));
    expect(res.status).toBe(303);

    const typed = `${name.toUpperCase()}@ＥＸＡＭＰＬＥ\u3002com.`;
    const second = await askForCode(typed);
    expect(second.res.status).toBe(200);
    expect(second.html).toContain(`We sent a 6-digit code to ${plain}.`);
    expect(await outboxFor(t, plain)).toHaveLength(2);
    const signedIn = await second.client.submitCode(typed, await latestCode(t, plain));
    expect(signedIn.res.status).toBe(303);
    expect(await writtenFor(name)).toMatchObject({ accounts: 1 });
  });

  it('an account stored before the rule (ada@bücher.example, ada@x.example.) is folded by the requested backfill and still signs in', async () => {
    const idn = `${local()}@bücher.example`;
    const dotted = `${local()}@dotted.example.`;
    for (const email of [idn, dotted]) await queryRows(t.deps.db, sql`INSERT INTO accounts (email) VALUES (${email})`);
    // Two spellings of one mailbox stored under the old rule: the first keeps the folded address, the other is reported.
    const twin = `${local()}@twin.example`;
    await queryRows(t.deps.db, sql`INSERT INTO accounts (email) VALUES (${twin}), (${`${twin}.`})`);

    const report = await runRequestedKeyBackfill(t.deps.db, { force: true });
    expect(report!.emailsFolded).toBeGreaterThanOrEqual(2);
    expect(report!.collisions).toContainEqual({
      table: 'accounts',
      id: expect.any(String),
      column: 'email',
      key: twin,
      heldBy: expect.any(String),
    });
    const stored = await queryRows<{ email: string }>(
      t.deps.db,
      sql`SELECT email FROM accounts WHERE email IN (${idn}, ${dotted}, ${idn.replace('bücher', 'xn--bcher-kva')}, ${dotted.slice(0, -1)})`,
    );
    expect(stored.map((r) => r.email).sort()).toEqual(
      [dotted.slice(0, -1), idn.replace('bücher', 'xn--bcher-kva')].sort(),
    );

    const { client, res } = await askForCode(idn);
    expect(res.status).toBe(200);
    const folded = idn.replace('bücher', 'xn--bcher-kva');
    expect((await client.submitCode(idn, await latestCode(t, folded))).res.status).toBe(303);
    const [row] = await queryRows<{ n: number }>(
      t.deps.db,
      sql`SELECT count(*)::int AS n FROM accounts WHERE email LIKE ${`${idn.split('@')[0]}@%`}`,
    );
    expect(row!.n).toBe(1);
  });
});
