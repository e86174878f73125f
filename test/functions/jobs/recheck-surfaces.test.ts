// Where health shows (docs/health.md): the owner's site record (health, site_changed), "refresh from the site" as an
// edit for review, GET /api/v1/tools?health=ok, the tool page's "Checked … ago" and the operator's list with its
// take-down form. Against loopback sites only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, ADMIN_TOKEN, type TestApp } from '../../helpers/test-app';
import { seedTools } from '../../helpers/live-tools';
import { startHealthSites, type HealthSites } from '../../helpers/health-sites';

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

async function ownedLiveTool(name: string, accountId: string) {
  const [tool] = await seedTools(t.deps.db, [{ name: `Surface ${name}`, description: 'Old words about the tool' }]);
  await t.deps.db.execute(
    sql`UPDATE sites SET url = ${sites.urlOf(name)}, account_id = ${accountId}::uuid WHERE id = ${tool!.id}`,
  );
  return tool!;
}
const recheck = (id: string) =>
  t.request('/api/jobs/recheck', { method: 'POST', key: ADMIN_TOKEN, json: { site_ids: [id] } });

describe('the owner sees health and can refresh from the site', () => {
  it('shows health on the site record, site_changed when the page says something else, and files the refresh as an edit', async () => {
    const owner = await t.member();
    sites.set('refreshable', { kind: 'up', description: 'New words the maker wrote on the site' });
    const tool = await ownedLiveTool('refreshable', owner.accountId);
    const before = await (await t.request(`/api/v1/sites/${tool.id}`, { key: owner.key })).json();
    expect(before.health).toMatchObject({ state: 'unchecked', last_checked_at: null, reason: 'not checked yet' });
    const early = await t.request(`/api/v1/sites/${tool.id}/refresh`, { method: 'POST', key: owner.key });
    expect(early.status).toBe(409);
    expect((await early.json()).error.code).toBe('invalid_state');

    await recheck(tool.id);
    const record = await (await t.request(`/api/v1/sites/${tool.id}`, { key: owner.key })).json();
    expect(record.health).toEqual({
      state: 'ok',
      last_checked_at: expect.any(String),
      last_ok_at: expect.any(String),
      failing_since: null,
      reason: null,
      moved_to: null,
    });
    expect(record.site_changed).toBe(true);

    const stranger = await t.member();
    expect((await t.request(`/api/v1/sites/${tool.id}/refresh`, { method: 'POST', key: stranger.key })).status).toBe(
      404,
    );
    expect((await t.request('/api/v1/sites/not-a-uuid/refresh', { method: 'POST', key: owner.key })).status).toBe(404);
    expect((await t.request(`/api/v1/sites/${tool.id}/refresh`, { method: 'POST' })).status).toBe(401);

    const filed = await t.request(`/api/v1/sites/${tool.id}/refresh`, { method: 'POST', key: owner.key });
    expect(filed.status).toBe(202);
    expect((await filed.json()).pending_edit).toMatchObject({ description: 'New words the maker wrote on the site' });
    // Nothing public changes on its own.
    const publicTool = await (await t.request(`/api/v1/tools/${tool.slug}`)).json();
    expect(publicTool.description).toBe('Old words about the tool');
    expect(publicTool.health.state).toBe('ok');
  });
});

describe('readers', () => {
  it('health=ok lists only tools whose last check passed; a bad value is a 400', async () => {
    const owner = await t.member();
    sites.set('fine-one', { kind: 'up' });
    sites.set('broken-one', { kind: 'status', status: 500 });
    const fine = await ownedLiveTool('fine-one', owner.accountId);
    const broken = await ownedLiveTool('broken-one', owner.accountId);
    await recheck(fine.id);
    await recheck(broken.id);
    const all = JSON.stringify(await (await t.request('/api/v1/tools?limit=50')).json());
    expect(all).toContain(fine.slug);
    expect(all).toContain(broken.slug); // failing for one day: still listed
    const healthy = await (await t.request('/api/v1/tools?limit=50&health=ok')).json();
    const slugs = healthy.tools.map((tool: { slug: string }) => tool.slug);
    expect(slugs).toContain(fine.slug);
    expect(slugs).not.toContain(broken.slug);
    const searched = await (
      await t.request(`/api/v1/tools?q=${encodeURIComponent('Surface fine-one')}&health=ok`)
    ).json();
    expect(searched.tools.map((tool: { slug: string }) => tool.slug)).toContain(fine.slug);
    const bad = await t.request('/api/v1/tools?health=failing');
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.code).toBe('invalid_request');
  });

  it('the tool page says when the site was last checked; JSON-LD carries dateModified', async () => {
    const owner = await t.member();
    sites.set('fresh', { kind: 'up' });
    const tool = await ownedLiveTool('fresh', owner.accountId);
    await recheck(tool.id);
    const html = await (await t.request(`/tools/${tool.slug}`)).text();
    expect(html).toMatch(/Checked<\/a> <time datetime="[^"]+">(just now|1 minute ago)<\/time>/);
    expect(html).toContain('"dateModified"');
    expect(html).not.toContain('noindex');
  });

  it('the page about the check exists', async () => {
    const res = await t.request('/about/checks');
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('User-agent: tooldir');
  });
});
