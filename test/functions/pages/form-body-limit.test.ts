import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client';
import { FORM_LIMIT_BYTES, FORM_LIMIT_TEXT } from '../../../src/body-limit';
import { createTestApp, type TestApp, uniqueUrl } from '../../helpers/test-app';
import { csrfOf, newEmail, PageClient, signedInMember } from './account-client';

// The pages' forms (/account and /submit) read at most FORM_LIMIT_BYTES (functions/middleware/body-limit.ts
// formBodyLimit): a larger form is a 413 page in words, and nothing is created.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const oversized = () => 'x'.repeat(FORM_LIMIT_BYTES + 1);
const count = async (table: 'sites' | 'accounts') => (await queryRows<{ n: number }>(t.deps.db, sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)}`))[0]!.n;

describe('a form larger than the limit', () => {
  it('/submit answers 413 in words and submits nothing; the same form at the limit is read', async () => {
    const { client } = await signedInMember(t, 'member');
    const form = (await client.page('/submit')).html;
    const before = await count('sites');
    const fields = { _csrf: csrfOf(form), name: 'Oversized Tool', url: uniqueUrl(), plan: 'basic' };
    const res = await client.request('/submit', { form: { ...fields, padding: oversized() }, headers: { origin: 'http://tooldir.test' } });
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
    const res = await client.request('/account/sign-in', { form: { _csrf: csrfOf(html), email: newEmail(), padding: oversized() } });
    expect(res.status).toBe(413);
    expect(await res.text()).toContain(`The form is larger than ${FORM_LIMIT_TEXT}.`);
    expect(await count('accounts')).toBe(before);
  });
});
