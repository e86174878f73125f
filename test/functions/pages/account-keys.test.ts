import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { queryRows } from '../../../src/db/client';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { PageClient, csrfOf, newEmail } from './account-client';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const keyOnPage = (html: string) =>
  /id="new-key-value" type="text" readonly value="(tdk_[0-9A-Za-z]{22})"/.exec(html)?.[1];

async function signedIn() {
  const client = new PageClient(t);
  const email = newEmail();
  await client.signIn(email);
  return { client, email };
}

async function createKey(client: PageClient, name: string) {
  const { html } = await client.page('/account/keys');
  const res = await client.request('/account/keys', { form: { _csrf: csrfOf(html), name } });
  expect(res.status).toBe(303);
  expect(res.headers.get('location')).toBe('/account/keys');
  const shown = await client.page('/account/keys');
  return { html: shown.html, key: keyOnPage(shown.html)! };
}

describe('API keys page', () => {
  it('creates a key, shows it once, and the API accepts it until it is revoked (then 401)', async () => {
    const { client } = await signedIn();
    const { html, key } = await createKey(client, 'laptop <b>');
    expect(key).toMatch(/^tdk_/);
    expect(html).toContain('shown only this once');
    expect(html).toContain('laptop &lt;b&gt;'); // escaped name
    expect(html).toContain(`<code>${key.slice(0, 12)}…</code>`);
    expect(html).toContain("<script>for(const b of document.querySelectorAll('button[data-copy]'))"); // the copy button's script, allowed by its hash

    const reload = await client.page('/account/keys');
    expect(keyOnPage(reload.html)).toBeUndefined();
    expect(reload.html).not.toContain(key);
    expect(reload.html).not.toContain('<script');

    const api = await t.request('/api/v1/sites', { key });
    expect(api.status).toBe(200);

    const keyId = /data-key-id="([0-9a-f-]{36})"/.exec(reload.html)![1]!;
    const revoke = await client.request(`/account/keys/${keyId}/revoke`, { form: { _csrf: csrfOf(reload.html) } });
    expect(revoke.status).toBe(303);
    const after = await client.page('/account/keys');
    expect(after.html).toMatch(/>revoked</);
    expect(after.html).not.toContain(`action="/account/keys/${keyId}/revoke"`);

    const refused = await t.request('/api/v1/sites', { key });
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
  });

  it('shows last use after the key was used', async () => {
    const { client } = await signedIn();
    const { key } = await createKey(client, 'ci');
    expect((await t.request('/api/v1/sites', { key })).status).toBe(200);
    // last_used_at is written off the response path: wait for the row, then check the page shows it.
    await vi.waitFor(async () => {
      const [row] = await queryRows<{ used: boolean }>(
        t.deps.db,
        sql`SELECT last_used_at IS NOT NULL AS used FROM api_keys WHERE prefix = ${key.slice(0, 12)}`,
      );
      expect(row?.used).toBe(true);
    });
    const { html } = await client.page('/account/keys');
    const row = /<tr data-key-id=[^]*?<\/tr>/.exec(html)![0];
    expect(row).toMatch(
      /<td data-label="Created">\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC<\/td>\s*<td data-label="Last used">\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC<\/td>/,
    );
  });

  it('refuses create and revoke without the session CSRF token (403) and changes nothing', async () => {
    const { client } = await signedIn();
    const { key } = await createKey(client, 'keep');
    const { html } = await client.page('/account/keys');
    const keyId = /data-key-id="([0-9a-f-]{36})"/.exec(html)![1]!;

    expect((await client.request('/account/keys', { form: { name: 'x' } })).status).toBe(403);
    expect((await client.request('/account/keys', { form: { _csrf: 'forged', name: 'x' } })).status).toBe(403);
    const foreign = await client.request('/account/keys', {
      form: { _csrf: csrfOf(html), name: 'x' },
      headers: { origin: 'https://evil.example' },
    });
    expect(foreign.status).toBe(403);
    expect((await client.request(`/account/keys/${keyId}/revoke`, { form: {} })).status).toBe(403);

    const after = await client.page('/account/keys');
    expect(after.html.match(/data-key-id=/g)).toHaveLength(1);
    expect((await t.request('/api/v1/sites', { key })).status).toBe(200);
  });

  it("cannot revoke another account's key", async () => {
    const victim = await t.member('member');
    const { client } = await signedIn();
    const { html } = await client.page('/account/keys');
    const res = await client.request(`/account/keys/${victim.keyId}/revoke`, { form: { _csrf: csrfOf(html) } });
    expect(res.status).toBe(404);
    expect((await t.request('/api/v1/sites', { key: victim.key })).status).toBe(200);
  });

  it('does not show a flashed key that is not one of this account’s keys', async () => {
    const victim = await t.member('member');
    const { client } = await signedIn();
    client.cookies.set('tooldir_new_key', victim.key);
    const { html } = await client.page('/account/keys');
    expect(html).not.toContain(victim.key);
  });

  it('sends signed-out visitors of the keys page to sign-in and refuses their POSTs', async () => {
    const anon = new PageClient(t);
    expect((await anon.request('/account/keys')).headers.get('location')).toBe(
      '/account/sign-in?next=%2Faccount%2Fkeys',
    );
    const post = await anon.request('/account/keys', { form: { name: 'x' } });
    expect(post.status).toBe(303);
    expect(post.headers.get('location')).toBe('/account/sign-in');
  });

  it('refuses an oversized form with a 413 page and creates nothing', async () => {
    const { client } = await signedIn();
    const { html } = await client.page('/account/keys');
    const res = await client.request('/account/keys', { form: { _csrf: csrfOf(html), name: 'x'.repeat(20_000) } });
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect((await client.page('/account/keys')).html).toContain('No keys yet');
  });

  it('answers 405 for other methods on account paths', async () => {
    const res = await new PageClient(t).request('/account/keys', { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, POST');
  });
});
