// The consequences of failing checks (docs/health.md "Consequences") against loopback sites that go down, come back
// and move: the owner's mail and the site.health_changed outbox rows after 3 failing days, hiding after
// HEALTH_HIDE_AFTER_DAYS (out of search, the category page and the sitemap; the page stays with a notice and noindex),
// restoring at the first pass, moved hidden at once, and a flapping site hidden and mailed at most once a day.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, ADMIN_TOKEN, type TestApp } from '../../helpers/test-app';
import { seedTools } from '../../helpers/live-tools';
import { startHealthSites, type HealthSites } from '../../helpers/health-sites';
import { queryRows } from '../../../src/db/client';
import { eventBody } from '../../../src/webhooks/event-body';

let t: TestApp;
let zero: TestApp;
let sites: HealthSites;
let clock = new Date();
const DAY = 86_400_000;

beforeAll(async () => {
  sites = await startHealthSites();
  t = await createTestApp({
    env: { CRAWL_ALLOW_PRIVATE: 'true', HEALTH_HIDE_AFTER_DAYS: '14' },
    overrides: { crawl: sites, now: () => clock },
  });
  zero = await createTestApp({
    env: { CRAWL_ALLOW_PRIVATE: 'true', HEALTH_HIDE_AFTER_DAYS: '0' },
    overrides: { crawl: sites, now: () => clock },
  });
}, 240_000);
afterAll(async () => {
  expect(sites.violations).toEqual([]);
  await t?.close();
  await zero?.close();
  await sites?.close();
});

async function liveTool(
  app: TestApp,
  name: string,
  seed: { isFeature?: boolean; isSponsor?: boolean; categories?: string[] } = {},
) {
  const [tool] = await seedTools(app.deps.db, [
    { name: `Healthtool ${name}`, description: `the ${name} tool`, ...seed },
  ]);
  await app.deps.db.execute(
    sql`UPDATE sites SET url = ${sites.urlOf(name)}, email = ${`${name}@owner.example`} WHERE id = ${tool!.id}`,
  );
  await app.deps.db.execute(sql`INSERT INTO webhooks (id, account_id, slot, url, events, secret)
    SELECT gen_random_uuid(), account_id, 1, 'https://hooks.example/h', ARRAY['site.health_changed'], 'whsec_x' FROM sites WHERE id = ${tool!.id}`);
  return tool!;
}

const recheck = (app: TestApp, id: string) =>
  app.request('/api/jobs/recheck', { method: 'POST', key: ADMIN_TOKEN, json: { site_ids: [id] } });
const mailsTo = async (app: TestApp, to: string) =>
  queryRows<{ subject: string; text: string }>(
    app.deps.db,
    sql`SELECT subject, text FROM mail_outbox WHERE "to" = ${to} ORDER BY created_at, id`,
  );
const eventsOf = async (app: TestApp, siteId: string) =>
  (
    await queryRows<{ event_id: string; event_type: string; created: string; data: unknown }>(
      app.deps.db,
      sql`SELECT event_id, event_type, created_at::text AS created, data FROM webhook_deliveries WHERE site_id = ${siteId} AND event_type = 'site.health_changed' ORDER BY created_at, id`,
    )
  ).map((row) => JSON.parse(eventBody(row)).data);
const hidden = async (app: TestApp, id: string) =>
  (await queryRows<{ health_hidden: boolean }>(app.deps.db, sql`SELECT health_hidden FROM sites WHERE id = ${id}`))[0]!
    .health_hidden;

describe('failing for days', () => {
  it('tells the owner on the 3rd failing day, hides on the 14th, and the first pass restores and says so', async () => {
    clock = new Date();
    sites.set('down-days', { kind: 'up' });
    const tool = await liveTool(t, 'down-days', { categories: ['writing'] });
    await recheck(t, tool.id);
    sites.set('down-days', { kind: 'status', status: 503 });
    const start = clock.getTime();
    for (const day of [1, 2]) {
      clock = new Date(start + day * DAY);
      await recheck(t, tool.id);
    }
    expect(await mailsTo(t, 'down-days@owner.example')).toEqual([]);
    clock = new Date(start + 3 * DAY);
    await recheck(t, tool.id);
    const [told] = await mailsTo(t, 'down-days@owner.example');
    expect(told!.subject).toMatch(/has not answered since/);
    expect(told!.text).toContain('HTTP 503');
    expect(await eventsOf(t, tool.id)).toEqual([
      expect.objectContaining({
        site_id: tool.id,
        hidden: false,
        previous_state: 'ok',
        health: expect.objectContaining({ state: 'failing', reason: 'HTTP 503' }),
      }),
    ]);
    expect(await hidden(t, tool.id)).toBe(false);

    clock = new Date(start + 14 * DAY);
    await recheck(t, tool.id);
    expect(await hidden(t, tool.id)).toBe(false); // 13 days after the first failing check
    clock = new Date(start + 15 * DAY);
    await recheck(t, tool.id);
    expect(await hidden(t, tool.id)).toBe(true);
    const search = await (await t.request(`/api/v1/tools?q=${encodeURIComponent('down-days')}`)).json();
    expect(JSON.stringify(search)).not.toContain(tool.slug);
    const page = await t.request(`/tools/${tool.slug}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('noindex');
    expect(html).toMatch(/has not answered since/);
    expect(await (await t.request('/sitemap.xml')).text()).not.toContain(tool.slug);
    expect(await (await t.request('/categories/writing')).text()).not.toContain(tool.slug);
    const record = await (await t.request(`/api/v1/tools/${tool.slug}`)).json();
    expect(record.health).toMatchObject({ state: 'failing', reason: 'HTTP 503', failing_since: expect.any(String) });
    expect(await mailsTo(t, 'down-days@owner.example')).toHaveLength(2);

    sites.set('down-days', { kind: 'up' });
    clock = new Date(start + 16 * DAY);
    await recheck(t, tool.id);
    expect(await hidden(t, tool.id)).toBe(false);
    expect(
      JSON.stringify(await (await t.request(`/api/v1/tools?q=${encodeURIComponent('down-days')}`)).json()),
    ).toContain(tool.slug);
    expect(await (await t.request('/sitemap.xml')).text()).toContain(tool.slug);
    const mails = await mailsTo(t, 'down-days@owner.example');
    expect(mails.at(-1)!.subject).toMatch(/answers again/);
    expect((await eventsOf(t, tool.id)).map((event) => event.health.state)).toEqual(['failing', 'failing', 'ok']);
  });

  it('moved hides at once and mails once; a featured listing is told what it means for its placement', async () => {
    clock = new Date();
    sites.set('new-home', { kind: 'up' });
    sites.set('was-sold', { kind: 'redirect', to: `http://new-home.localhost:${sites.port}/` });
    const tool = await liveTool(t, 'was-sold', { isFeature: true });
    await recheck(t, tool.id);
    expect(await hidden(t, tool.id)).toBe(true);
    const [mail] = await mailsTo(t, 'was-sold@owner.example');
    expect(mail!.subject).toMatch(/another domain/);
    expect(mail!.text).toContain('new-home.localhost');
    expect(mail!.text).toMatch(
      /Your listing has a Featured badge: while it is hidden, its Featured badge is not shown/,
    );
    expect(await eventsOf(t, tool.id)).toEqual([
      expect.objectContaining({
        hidden: true,
        health: expect.objectContaining({ state: 'moved', moved_to: 'new-home.localhost' }),
      }),
    ]);
  });
});

describe('HEALTH_HIDE_AFTER_DAYS=0 and flapping', () => {
  it('hides at the first failing check; a site flapping by the hour is hidden and mailed at most once a day', async () => {
    clock = new Date(Math.floor(Date.now() / DAY) * DAY + 3_600_000); // 01:00 UTC today
    sites.set('flappy', { kind: 'status', status: 500 });
    const tool = await liveTool(zero, 'flappy');
    await recheck(zero, tool.id);
    expect(await hidden(zero, tool.id)).toBe(true);
    let hides = 1;
    for (let hour = 1; hour < 20; hour++) {
      clock = new Date(clock.getTime() + 3_600_000);
      sites.set('flappy', hour % 2 ? { kind: 'up' } : { kind: 'status', status: 500 });
      const wasHidden = await hidden(zero, tool.id);
      await recheck(zero, tool.id);
      if (!wasHidden && (await hidden(zero, tool.id))) hides++;
    }
    expect(hides).toBe(1); // restored at the first pass, not hidden again the same day
    expect(await mailsTo(zero, 'flappy@owner.example')).toHaveLength(0); // never 3 failing days
  });
});
