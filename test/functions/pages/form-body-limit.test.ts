import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client';
import { FORM_LIMIT_BYTES, FORM_LIMIT_TEXT } from '../../../src/body-limit';
import { ADMIN_TOKEN, createTestApp, type TestApp, uniqueUrl } from '../../helpers/test-app';
import { csrfOf, newEmail, PageClient, signedInMember } from './account-client';

// The pages' forms (/account, /submit, the editor's /admin forms and the statistics opt-out) read at most
// FORM_LIMIT_BYTES (functions/middleware/body-limit.ts): a larger form is a 413 page in words, and nothing is
// created. Every other route's limit: test/functions/middleware/body-limits-everywhere.test.ts.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const oversized = () => 'x'.repeat(FORM_LIMIT_BYTES + 1);
const count = async (table: 'sites' | 'accounts') =>
  (await queryRows<{ n: number }>(t.deps.db, sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)}`))[0]!.n;

describe('a form larger than the limit', () => {
  it('/submit answers 413 in words and submits nothing; the same form at the limit is read', async () => {
    const { client } = await signedInMember(t, 'member');
    const form = (await client.page('/submit')).html;
    const before = await count('sites');
    const fields = { _csrf: csrfOf(form), name: 'Oversized Tool', url: uniqueUrl(), plan: 'basic' };
    const res = await client.request('/submit', {
      form: { ...fields, padding: oversized() },
      headers: { origin: 'http://tooldir.test' },
    });
    expect(res.status).toBe(413);
    expect(await res.text()).toContain(`The form is larger than ${FORM_LIMIT_TEXT}.`);
    expect(await count('sites')).toBe(before);
    // Control: a small form reaches the handler (refused there for its missing key, not by the limit).
    const small = await client.request('/submit', { form: fields, headers: { origin: 'http://tooldir.test' } });
    expect(small.status).not.toBe(413);
  });

  it('/account/sign-in answers 413 in words and creates no account', async () => {
    const client = new PageClient(t);
    const { html } = await client.page('/account/sign-in');
    const before = await count('accounts');
    const res = await client.request('/account/sign-in', {
      form: { _csrf: csrfOf(html), email: newEmail(), padding: oversized() },
    });
    expect(res.status).toBe(413);
    expect(await res.text()).toContain(`The form is larger than ${FORM_LIMIT_TEXT}.`);
    expect(await count('accounts')).toBe(before);
  });

  it('/admin/login with the right token answers 413 in words before reading it, and signs nobody in (issue 27)', async () => {
    const editorSessions = async () =>
      (
        await queryRows<{ n: number }>(
          t.deps.db,
          sql`SELECT count(*)::int AS n FROM web_sessions WHERE kind = 'editor'`,
        )
      )[0]!.n;
    const before = await editorSessions();
    const post = (body: string) =>
      t.request('/admin/login', {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://tooldir.test' },
      });
    const res = await post(new URLSearchParams({ token: ADMIN_TOKEN, padding: oversized() }).toString());
    expect(res.status).toBe(413);
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(await res.text()).toContain(`The form is larger than ${FORM_LIMIT_TEXT}.`);
    expect(await editorSessions()).toBe(before);
    // Control: the same login without the padding signs in.
    expect((await post(new URLSearchParams({ token: ADMIN_TOKEN }).toString())).status).toBe(303);
  });

  it('/stats/unsubscribe/{token} answers 413 in words before it reads the form', async () => {
    const res = await t.request(`/stats/unsubscribe/${crypto.randomUUID()}`, {
      method: 'POST',
      body: new URLSearchParams({ choice: 'stop', padding: oversized() }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://tooldir.test' },
    });
    expect(res.status).toBe(413);
    expect(await res.text()).toContain(`The form is larger than ${FORM_LIMIT_TEXT}.`);
  });
});
