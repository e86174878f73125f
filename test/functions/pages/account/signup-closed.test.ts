import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../../src/db/client';
import { createTestApp, type TestApp } from '../../../helpers/test-app';
import { PageClient, newEmail, outboxFor } from './account-client';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { SIGNUP: 'closed' } });
});
afterAll(() => t.close());

/** The page body without the per-response CSRF token, code reference and addresses, to compare two answers. */
const normalized = (html: string, email: string) =>
  html
    .replace(/name="_csrf" value="[^"]+"/g, '')
    .replace(/reference [A-Z]{4}/g, '')
    .replaceAll(email, 'EMAIL')
    .replace(/nonce="[^"]+"/g, '');

describe('SIGNUP=closed', () => {
  it('says sign-up is closed on the sign-in page', async () => {
    const { html } = await new PageClient(t).page('/account/sign-in');
    expect(html).toContain('New sign-ups are closed');
  });

  it('answers an unknown and a known address with the same page, mails and creates nothing for the unknown one', async () => {
    const member = await t.member('member');
    const unknown = newEmail();
    const forUnknown = await new PageClient(t).requestCode(unknown);
    const forKnown = await new PageClient(t).requestCode(member.email);
    expect(forUnknown.res.status).toBe(forKnown.res.status);
    expect(normalized(forUnknown.html, unknown)).toBe(normalized(forKnown.html, member.email));
    expect(forUnknown.html).toContain('New sign-ups are closed');

    expect(await outboxFor(t, unknown)).toEqual([]);
    expect(await outboxFor(t, member.email)).toHaveLength(1);
    expect(await queryRows(t.deps.db, sql`SELECT 1 FROM accounts WHERE email = ${unknown}`)).toEqual([]);
  });

  it('still signs in an existing account', async () => {
    const member = await t.member('none');
    const client = new PageClient(t);
    await client.signIn(member.email);
    expect((await client.request('/account')).status).toBe(200);
  });

  // Every step, byte for byte, and what a stranger's wrong tries do: account-sign-in-stranger.test.ts.
  it('refuses any code for an unknown address', async () => {
    const unknown = newEmail();
    const client = new PageClient(t);
    await client.requestCode(unknown);
    const r = await client.submitCode(unknown, '123456');
    expect(r.res.status).toBe(401);
    expect(await queryRows(t.deps.db, sql`SELECT 1 FROM accounts WHERE email = ${unknown}`)).toEqual([]);
  });
});
