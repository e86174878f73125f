// "Refresh from the site" on the submission page (docs/health.md "Changes on the site"): shown only when the record
// says site_changed, with what the site now says beside what the listing shows; its POST (the session's CSRF token,
// refused without) files the edit the API's POST /api/v1/sites/{id}/refresh files, and a double click files one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, ADMIN_TOKEN, type TestApp } from '../../../helpers/test-app';
import { startHealthSites, type HealthSites } from '../../../helpers/health-sites';
import { seedOwnedTool } from '../../../helpers/owned-tools';
import { queryRows } from '../../../../src/db/client';
import { csrfOf, signedInMember, type PageClient } from './account-client';

let t: TestApp;
let sites: HealthSites;

beforeAll(async () => {
  sites = await startHealthSites();
  t = await createTestApp({ env: { CRAWL_ALLOW_PRIVATE: 'true' }, overrides: { crawl: sites } });
}, 240_000);
afterAll(async () => {
  expect(sites.violations).toEqual([]);
  await t?.close();
  await sites?.close();
});

const recheck = async (id: string) =>
  expect(
    (await t.request('/api/jobs/recheck', { method: 'POST', key: ADMIN_TOKEN, json: { site_ids: [id] } })).status,
  ).toBe(200);
const editsOf = (siteId: string) =>
  queryRows<{ status: string; description: string | null }>(
    t.deps.db,
    sql`SELECT status, description FROM site_edits WHERE site_id = ${siteId}::uuid ORDER BY submitted_at, id`,
  );
const onceOf = (html: string) => /name="once" value="([^"]+)"/.exec(html)![1]!;
const post = (client: PageClient, path: string, form: Record<string, string>) =>
  client.request(path, { form, headers: { origin: 'http://tooldir.test' } });

describe('Refresh from the site on the submission page', () => {
  it('appears only when the site changed, shows both sides, and one press (even twice) files one edit', async () => {
    const { m, client } = await signedInMember(t, 'member');
    sites.set('same', { kind: 'up', title: 'Refresh same', description: 'The original description.' });
    const same = await seedOwnedTool(t.deps.db, m.accountId, { name: 'Refresh same', url: sites.urlOf('same') });
    await recheck(same.id);
    expect((await client.page(`/account/submissions/${same.id}`)).html).not.toContain('refresh-from-site');

    sites.set('moved-on', { kind: 'up', title: 'Refresh moved on', description: 'Words the maker wrote on the site' });
    const tool = await seedOwnedTool(t.deps.db, m.accountId, {
      name: 'Refresh moved on',
      url: sites.urlOf('moved-on'),
    });
    expect((await client.page(`/account/submissions/${tool.id}`)).html).not.toContain('refresh-from-site');
    await recheck(tool.id);
    const { html } = await client.page(`/account/submissions/${tool.id}`);
    expect(html).toContain('id="refresh-from-site"');
    const table = html.slice(html.indexOf('id="site-changes-table"'), html.indexOf('</table>'));
    expect(table).toContain('Words the maker wrote on the site');
    expect(table).toContain('The original description.');

    // Without the session's CSRF token: refused, nothing filed.
    const refused = await post(client, `/account/submissions/${tool.id}/refresh`, { once: onceOf(html) });
    expect(refused.status).toBe(403);
    expect(await editsOf(tool.id)).toEqual([]);

    // A double click: the same rendering's form twice at once, then once more after.
    const form = { _csrf: csrfOf(html), once: onceOf(html) };
    const presses = await Promise.all([
      post(client, `/account/submissions/${tool.id}/refresh`, form),
      post(client, `/account/submissions/${tool.id}/refresh`, form),
    ]);
    expect(presses.map((res) => res.status)).toEqual([303, 303]);
    expect(presses[0]!.headers.get('location')).toBe(`/account/submissions/${tool.id}#edit`);
    expect((await post(client, `/account/submissions/${tool.id}/refresh`, form)).status).toBe(303);
    expect(await editsOf(tool.id)).toEqual([{ status: 'pending', description: 'Words the maker wrote on the site' }]);
    const record = await (await t.request(`/api/v1/sites/${tool.id}`, { key: m.key })).json();
    expect(record.pending_edit).toMatchObject({ description: 'Words the maker wrote on the site' });
    // Nothing public changed.
    const publicRecord = await (await t.request(`/api/v1/tools/${tool.slug}`)).json();
    expect(publicRecord.description).toBe('The original description.');
    expect((await client.page(`/account/submissions/${tool.id}`)).html).toContain('id="pending-edit"');
  });

  it("another account's tool is not found; a tool with nothing to propose comes back with the reason", async () => {
    const { m, client } = await signedInMember(t, 'member');
    const other = await signedInMember(t, 'member');
    sites.set('titled', { kind: 'up', title: 'A brand new title', description: 'The original description.' });
    const tool = await seedOwnedTool(t.deps.db, m.accountId, { name: 'Refresh titled', url: sites.urlOf('titled') });
    await recheck(tool.id);
    const { html } = await client.page(`/account/submissions/${tool.id}`);
    expect(html).toContain('A brand new title');
    expect(html).toContain('id="refresh-nothing"');
    expect(html).not.toContain('id="refresh-from-site"');
    const form = { _csrf: csrfOf(html) };
    const nothing = await post(client, `/account/submissions/${tool.id}/refresh`, form);
    expect(nothing.status).toBe(409);
    expect(await nothing.text()).toContain('no description on the site other than the one listed');
    const strangerHtml = (await other.client.page('/account')).html;
    const stranger = await post(other.client, `/account/submissions/${tool.id}/refresh`, {
      _csrf: csrfOf(strangerHtml),
    });
    expect(stranger.status).toBe(404);
    expect(await editsOf(tool.id)).toEqual([]);
  });
});
