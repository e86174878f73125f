import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client';
import { requestSignInCode } from '../../../src/accounts/sign-in-request';
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../../helpers/test-app';
import { PageClient, csrfOf, outboxFor, uniqueIp } from './account-client';

// Disposable-mail addresses are refused by the core sign-in request (src/accounts/sign-in-request.ts), with the
// same answer whether or not an account exists, and nothing is written or mailed (issue 20, point 3).
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const codesFor = async (email: string) =>
  (await queryRows(t.deps.db, sql`SELECT 1 FROM sign_in_codes WHERE email = ${email}`)).length;

describe('disposable addresses at sign-in', () => {
  it('are refused on the page with a message next to the field, the address kept, nothing mailed or stored', async () => {
    const client = new PageClient(t, uniqueIp());
    const page = await client.page('/account/sign-in?next=%2Fsubmit%3Fplan%3Dbasic');
    const email = `maker-${crypto.randomUUID().slice(0, 6)}@Mailinator.com`;
    const res = await client.request('/account/sign-in', {
      form: { _csrf: csrfOf(page.html), email, next: '/submit?plan=basic' },
    });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain(
      '<p class="error" role="alert">Addresses at mailinator.com are disposable (temporary) mail, which we do not accept.',
    );
    expect(html).toMatch(
      /<input id="email" type="email" name="email" value="maker-[0-9a-f]{6}@Mailinator\.com"[^>]* aria-invalid="true" aria-describedby="email-error">/,
    );
    expect(html).toContain('<span class="field-error" id="email-error">Addresses at mailinator.com');
    expect(html).toContain('name="next" value="/submit?plan=basic"');
    expect(await codesFor(email.toLowerCase())).toBe(0);
    expect(await outboxFor(t, email.toLowerCase())).toEqual([]);
    expect(res.headers.getSetCookie().some((c) => c.startsWith('tooldir_signin_challenge='))).toBe(false);
  });

  it('subdomains of a listed domain too', async () => {
    const client = new PageClient(t, uniqueIp());
    const page = await client.page('/account/sign-in');
    const res = await client.request('/account/sign-in', {
      form: { _csrf: csrfOf(page.html), email: 'x@inbox.yopmail.com' },
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('Addresses at inbox.yopmail.com are disposable');
  });

  it('an existing account at such a domain gets the very same answer as an unknown address (no enumeration)', async () => {
    const known = `known-${crypto.randomUUID().slice(0, 6)}@guerrillamail.com`;
    const created = await t.request('/api/v1/admin/accounts', {
      method: 'POST',
      key: ADMIN_TOKEN,
      json: { email: known },
    });
    expect(created.status).toBe(201);
    const unknown = `unknown-${crypto.randomUUID().slice(0, 6)}@guerrillamail.com`;
    const answer = async (email: string) => {
      const client = new PageClient(t, uniqueIp());
      const page = await client.page('/account/sign-in');
      const res = await client.request('/account/sign-in', { form: { _csrf: csrfOf(page.html), email } });
      const text = (await res.text()).replaceAll(email, 'EMAIL').replace(/name="_csrf" value="[^"]+"/g, '');
      return { status: res.status, text };
    };
    const [a, b] = [await answer(known), await answer(unknown)];
    expect(a.status).toBe(400);
    expect(a).toEqual(b);
  });

  it('the core rule refuses without the page (any caller of requestSignInCode)', async () => {
    const result = await requestSignInCode(t.deps, { email: 'core@10minutemail.com', client: '203.0.113.9' });
    expect(result).toEqual({ ok: false, reason: 'disposable_address' });
    expect(await codesFor('core@10minutemail.com')).toBe(0);
  });

  it('an ordinary address still gets its code', async () => {
    const client = new PageClient(t, uniqueIp());
    const email = `ordinary-${crypto.randomUUID().slice(0, 6)}@example.com`;
    const { res } = await client.requestCode(email);
    expect(res.status).toBe(200);
    expect(await codesFor(email)).toBe(1);
  });
});
