import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../../src/db/client';
import { sha256Hex } from '../../../../src/crypto';
import { createTestApp, type TestApp } from '../../../helpers/test-app';
import { PageClient, csrfOf, latestCode, newEmail, outboxFor } from './account-client';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const codeRows = (email: string) =>
  queryRows<{ code_hash: string; tries: number }>(
    t.deps.db,
    sql`SELECT code_hash, tries FROM sign_in_codes WHERE email = ${email}`,
  );
const codeRow = async (email: string) => (await codeRows(email))[0];

describe('account sign-in', () => {
  it('sends an anonymous visitor to the sign-in page', async () => {
    const res = await new PageClient(t).request('/account');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/account/sign-in');
  });

  it('signs up a new address with the mailed code and sets a hardened session cookie', async () => {
    const client = new PageClient(t);
    const email = newEmail();
    const { res, html } = await client.requestCode(email);
    expect(res.status).toBe(200);
    expect(html).toContain(`We sent a 6-digit code to ${email}`);
    // The code belongs to this browser: its challenge lives in a Strict, HttpOnly cookie as long as the code.
    const challenge = res.headers.getSetCookie().find((c) => c.startsWith('tooldir_signin_challenge='))!;
    expect(challenge).toMatch(
      /^tooldir_signin_challenge=[0-9A-Za-z]{32}; Max-Age=600; Path=\/account\/sign-in; HttpOnly; Secure; SameSite=Strict$/,
    );
    const code = await latestCode(t, email);
    // Stored only as a peppered hash: neither the code nor its bare SHA-256 is in the table.
    const row = await codeRow(email);
    expect(row!.code_hash).not.toContain(code);
    expect(row!.code_hash).not.toBe(await sha256Hex(code));

    const signedIn = await client.submitCode(email, code);
    expect(signedIn.res.status).toBe(303);
    const cookie = signedIn.res.headers.getSetCookie().find((c) => c.startsWith('tooldir_session='))!;
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; Secure/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).toMatch(/; Path=\/;/); // the whole site: /submit and every page's header need it
    const expires = new Date(/Expires=([^;]+)/.exec(cookie)![1]!).getTime();
    expect(expires - Date.now()).toBeGreaterThan(29 * 86_400_000);
    expect(expires - Date.now()).toBeLessThan(31 * 86_400_000);
    // Only the token's hash is stored.
    const token = client.cookies.get('tooldir_session')!;
    const sessions = await queryRows<{ token_hash: string; kind: string }>(
      t.deps.db,
      sql`SELECT s.token_hash, s.kind FROM web_sessions s JOIN accounts a ON a.id = s.account_id WHERE a.email = ${email}`,
    );
    expect(sessions).toEqual([{ token_hash: await sha256Hex(token), kind: 'account' }]);
    // The code is spent: kept (until it expires) only as used.
    expect(
      await queryRows(t.deps.db, sql`SELECT used_at IS NOT NULL AS used FROM sign_in_codes WHERE email = ${email}`),
    ).toEqual([{ used: true }]);

    const overview = await client.page('/account');
    expect(overview.res.status).toBe(200);
    expect(overview.html).toContain(email);
    expect(overview.html).toContain('You have no membership.');
    const csp = overview.res.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).not.toContain('script-src'); // the overview runs no script at all
    expect(csp).not.toContain('unsafe-inline');
    expect(overview.res.headers.get('cache-control')).toBe('no-store');
  });

  it('signs in an existing account (created by the operator) and shows its tier', async () => {
    const member = await t.member('member');
    const client = new PageClient(t);
    await client.signIn(member.email);
    const { html } = await client.page('/account');
    expect(html).toMatch(/id="tier">Member</);
  });

  it('accepts a code exactly once, even when it is entered twice at the same moment', async () => {
    const client = new PageClient(t);
    const email = newEmail();
    await client.requestCode(email);
    const code = await latestCode(t, email);
    const challenge = client.cookies.get('tooldir_signin_challenge')!;
    const both = await Promise.all([client.submitCode(email, code), client.submitCode(email, code)]);
    expect(both.map((r) => r.res.status).sort()).toEqual([303, 401]);
    expect(both.find((r) => r.res.status === 401)!.html).toContain('expired, was already used');
    const sessions = await queryRows(
      t.deps.db,
      sql`SELECT 1 FROM web_sessions s JOIN accounts a ON a.id = s.account_id WHERE a.email = ${email}`,
    );
    expect(sessions).toHaveLength(1);
    // Signing in clears the challenge cookie, and a copy of it is worthless: the code is spent.
    expect(client.cookies.has('tooldir_signin_challenge')).toBe(false);
    const copy = new PageClient(t);
    await copy.page('/account/sign-in');
    copy.cookies.set('tooldir_signin_challenge', challenge);
    expect((await copy.submitCode(email, code)).res.status).toBe(401);
  });

  it('kills a code after 5 wrong tries, even for the right code; a new code starts over', async () => {
    const client = new PageClient(t);
    const email = newEmail();
    await client.requestCode(email);
    const code = await latestCode(t, email);
    const wrong = code === '000000' ? '111111' : '000000';
    for (const left of [4, 3, 2, 1]) {
      const r = await client.submitCode(email, wrong);
      expect(r.res.status).toBe(401);
      expect(r.html).toContain(`${left} ${left === 1 ? 'try' : 'tries'} left`);
    }
    const fifth = await client.submitCode(email, wrong);
    expect(fifth.res.status).toBe(429);
    expect(fifth.html).toContain('Too many wrong codes');
    const right = await client.submitCode(email, code);
    expect(right.res.status).toBe(429);
    expect(right.html).toContain('Too many wrong codes');
    expect(right.res.headers.getSetCookie().some((c) => c.startsWith('tooldir_session='))).toBe(false);

    await client.requestCode(email);
    const fresh = await latestCode(t, email);
    expect((await codeRows(email)).map((r) => r.tries).sort()).toEqual([0, 5]); // a new row; the old one stays dead
    const again = await client.submitCode(email, fresh === '000000' ? '111111' : '000000');
    expect(again.html).toContain('4 tries left');
    expect((await client.submitCode(email, fresh)).res.status).toBe(303);
  });

  it('never grants more than 5 tries to concurrent guesses', async () => {
    const client = new PageClient(t);
    const email = newEmail();
    await client.requestCode(email);
    const code = await latestCode(t, email);
    const wrong = code === '000000' ? '111111' : '000000';
    // 9 guesses + the right code stay within the 10/min attempt limit: every 429 here is the dead code.
    const results = await Promise.all(Array.from({ length: 9 }, () => client.submitCode(email, wrong)));
    expect(results.filter((r) => r.res.status === 401)).toHaveLength(4);
    expect(results.filter((r) => r.res.status === 429 && r.html.includes('Too many wrong codes'))).toHaveLength(5);
    expect((await codeRows(email)).map((r) => r.tries)).toEqual([5]);
    const right = await client.submitCode(email, code);
    expect(right.res.status).toBe(429);
    expect(right.html).toContain('Too many wrong codes');
  });

  it('refuses an expired code', async () => {
    const client = new PageClient(t);
    const email = newEmail();
    await client.requestCode(email);
    await queryRows(
      t.deps.db,
      sql`UPDATE sign_in_codes SET expires_at = now() - interval '1 second' WHERE email = ${email}`,
    );
    const r = await client.submitCode(email, await latestCode(t, email));
    expect(r.res.status).toBe(401);
    expect(r.html).toContain('expired');
    expect(client.cookies.has('tooldir_session')).toBe(false);
  });

  it('treats a forged or malformed challenge cookie as "no code here" (401, never 5xx)', async () => {
    const email = newEmail();
    const client = new PageClient(t);
    await client.requestCode(email);
    const code = await latestCode(t, email);
    for (const forged of [
      'x',
      'A'.repeat(32),
      'a'.repeat(4000),
      '%00%ff',
      client.cookies.get('tooldir_signin_challenge')!.toLowerCase(),
    ]) {
      const other = new PageClient(t);
      await other.page('/account/sign-in');
      other.cookies.set('tooldir_signin_challenge', forged);
      const r = await other.submitCode(email, code);
      expect(r.res.status, forged.slice(0, 10)).toBe(401);
      expect(r.html).toContain('asked for in another browser');
    }
    expect((await client.submitCode(email, code)).res.status).toBe(303);
  });

  it('rejects a malformed e-mail with the form again', async () => {
    const client = new PageClient(t);
    const { html } = await client.page('/account/sign-in');
    const res = await client.request('/account/sign-in', { form: { _csrf: csrfOf(html), email: 'not-an-address' } });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('does not look like an e-mail address');
  });
});

describe('sign-in CSRF (double-submit cookie + Origin)', () => {
  it('refuses a code request without the CSRF cookie, with a mismatched token, or from a foreign origin', async () => {
    const email = newEmail();
    const fresh = new PageClient(t);
    const noCookie = await fresh.request('/account/sign-in', { form: { _csrf: 'a'.repeat(32), email } });
    expect(noCookie.status).toBe(403);
    expect(await noCookie.text()).toContain('did not come from this site');

    const client = new PageClient(t);
    const { html } = await client.page('/account/sign-in');
    expect((await client.request('/account/sign-in', { form: { _csrf: 'b'.repeat(32), email } })).status).toBe(403);
    expect((await client.request('/account/sign-in', { form: { email } })).status).toBe(403);
    const foreign = await client.request('/account/sign-in', {
      form: { _csrf: csrfOf(html), email },
      headers: { origin: 'https://evil.example' },
    });
    expect(foreign.status).toBe(403);
    expect(await outboxFor(t, email)).toEqual([]);
    // The same form from our own origin works.
    const ok = await client.request('/account/sign-in', {
      form: { _csrf: csrfOf(html), email },
      headers: { origin: 'http://tooldir.test' },
    });
    expect(ok.status).toBe(200);
  });
});

describe('sign-in rate limits', () => {
  it('limits code requests per client IP (HTML 429 with Retry-After) before sending anything', async () => {
    const client = new PageClient(t, '10.99.0.1');
    for (let i = 0; i < 10; i++) expect((await client.requestCode(newEmail())).res.status).toBe(200);
    const email = newEmail();
    const limited = await client.requestCode(email);
    expect(limited.res.status).toBe(429);
    expect(Number(limited.res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.html).toContain('Too many requests');
    expect(await outboxFor(t, email)).toEqual([]);
  });

  it('limits code attempts per client IP, whatever the addresses', async () => {
    const client = new PageClient(t, '10.99.0.2');
    const { html } = await client.page('/account/sign-in');
    const attempt = (email: string) =>
      client.request('/account/sign-in/code', { form: { _csrf: csrfOf(html), email, code: '123456' } });
    for (let i = 0; i < 10; i++) expect((await attempt(newEmail())).status).toBe(401);
    const limited = await attempt(newEmail());
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('sign-out', () => {
  it('needs the session CSRF token, then ends the session', async () => {
    const client = new PageClient(t);
    await client.signIn(newEmail());
    expect((await client.request('/account/sign-out', { form: { _csrf: 'wrong' } })).status).toBe(403);
    expect((await client.request('/account')).status).toBe(200);
    const { html } = await client.page('/account');
    const token = client.cookies.get('tooldir_session')!;
    const out = await client.request('/account/sign-out', { form: { _csrf: csrfOf(html) } });
    expect(out.status).toBe(303);
    expect(client.cookies.has('tooldir_session')).toBe(false);
    const rows = await queryRows(
      t.deps.db,
      sql`SELECT 1 FROM web_sessions WHERE token_hash = ${await sha256Hex(token)}`,
    );
    expect(rows).toEqual([]);
    // The old cookie value is worthless now.
    client.cookies.set('tooldir_session', token);
    expect((await client.request('/account')).status).toBe(303);
  });
});

describe('the Secure flag', () => {
  it('is left off only for plain http on a loopback host', async () => {
    for (const [base, secure] of [
      ['http://127.0.0.1:8787', false],
      ['http://localhost:8787', false],
      ['http://tooldir.test', true],
      ['https://127.0.0.1', true],
    ] as const) {
      const res = await new PageClient(t, undefined, base).request('/account/sign-in');
      const cookie = res.headers.getSetCookie().find((c) => c.startsWith('tooldir_signin_csrf='))!;
      expect(/; Secure/.test(cookie), base).toBe(secure);
    }
  });
});
