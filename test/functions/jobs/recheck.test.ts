// The re-check against loopback sites (docs/health.md): states and reasons, politeness, the due query and the
// one-check-a-day rule, the explicit request, a round that dies halfway, and the bad-input list of POST /api/jobs/recheck.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, ADMIN_TOKEN, type TestApp } from '../../helpers/test-app';
import { seedTools } from '../../helpers/live-tools';
import { startHealthSites, type HealthSites } from '../../helpers/health-sites';
import { queryRows } from '../../../src/db/client';
import { runHealthRound } from '../../../src/health/run-round';

let t: TestApp;
let sites: HealthSites;
let clock = new Date();

beforeAll(async () => {
  sites = await startHealthSites();
  t = await createTestApp({
    env: { CRAWL_ALLOW_PRIVATE: 'true', HEALTH_HIDE_AFTER_DAYS: '14' },
    overrides: { crawl: sites, now: () => clock },
  });
}, 240_000);
afterAll(async () => {
  expect(sites.violations).toEqual([]);
  await t?.close();
  await sites?.close();
});

/** A live tool listed at `<name>.localhost`. */
async function liveTool(name: string) {
  const [tool] = await seedTools(t.deps.db, [{ name: `Health ${name}` }]);
  await t.deps.db.execute(
    sql`UPDATE sites SET url = ${sites.urlOf(name)}, metadata = metadata || jsonb_build_object('finalUrl', ${sites.urlOf(name)}::text) WHERE id = ${tool!.id}`,
  );
  return tool!;
}

const recheck = (json: unknown) => t.request('/api/jobs/recheck', { method: 'POST', key: ADMIN_TOKEN, json });

async function healthOf(siteId: string) {
  const [row] = await queryRows<Record<string, unknown>>(
    t.deps.db,
    sql`SELECT h.state, h.reason_kind, h.http_status, h.moved_to, h.last_checked_at, h.next_check_at, s.health_hidden
      FROM site_health h JOIN sites s ON s.id = h.site_id WHERE h.site_id = ${siteId}`,
  );
  return row!;
}

describe('one check records a state and a reason', () => {
  it.each([
    ['up', { kind: 'up' } as const, 'ok', null],
    ['five-hundred', { kind: 'status', status: 503 } as const, 'failing', 'http_5xx'],
    ['gone-page', { kind: 'status', status: 404 } as const, 'failing', 'not_found'],
    ['hangs', { kind: 'hang' } as const, 'failing', 'no_answer'],
    ['loops', { kind: 'loop' } as const, 'failing', 'redirect_loop'],
    ['dns-gone', { kind: 'dns_gone' } as const, 'failing', 'dns_gone'],
    ['ten-mb', { kind: 'huge' } as const, 'ok', null],
    ['to-metadata', { kind: 'redirect', to: 'http://169.254.169.254/latest' } as const, 'failing', 'blocked_address'],
    ['slow-down', { kind: 'status', status: 429 } as const, 'unchecked', 'rate_limited'],
  ])('%s', async (name, mode, state, reason) => {
    sites.set(name, mode);
    const tool = await liveTool(name);
    const res = await recheck({ site_ids: [tool.id] });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true, claimed: 1, checked: 1 });
    expect(await healthOf(tool.id)).toMatchObject({ state, reason_kind: reason });
  });

  it('a redirect within the domain is followed; one to another .localhost domain is moved, never followed', async () => {
    sites.set('www.same', { kind: 'up' });
    sites.set('same', { kind: 'redirect', to: `http://www.same.localhost:${sites.port}/` });
    sites.set('elsewhere', { kind: 'up' });
    sites.set('sold', { kind: 'redirect', to: `http://elsewhere.localhost:${sites.port}/parked` });
    const same = await liveTool('same');
    const sold = await liveTool('sold');
    await recheck({ site_ids: [same.id, sold.id] });
    expect(await healthOf(same.id)).toMatchObject({ state: 'ok' });
    expect(await healthOf(sold.id)).toMatchObject({
      state: 'moved',
      moved_to: 'elsewhere.localhost',
      health_hidden: true,
    });
    expect(sites.hits.some((hit) => hit.host === 'elsewhere.localhost')).toBe(false);
  });

  it("robots.txt disallowing our agent is unchecked, not failing; another agent's rule does not apply", async () => {
    sites.set('private-area', { kind: 'status', status: 503 });
    sites.robots('private-area', 'User-agent: tooldir\nDisallow: /\n');
    sites.set('other-bots', { kind: 'up' });
    sites.robots('other-bots', 'User-agent: BadBot\nDisallow: /\n');
    const hidden = await liveTool('private-area');
    const open = await liveTool('other-bots');
    await recheck({ site_ids: [hidden.id, open.id] });
    expect(await healthOf(hidden.id)).toMatchObject({
      state: 'unchecked',
      reason_kind: 'robots_disallowed',
      health_hidden: false,
    });
    expect(await healthOf(open.id)).toMatchObject({ state: 'ok' });
    expect(sites.hits.filter((hit) => hit.host === 'private-area.localhost').map((hit) => hit.path)).toEqual([
      '/robots.txt',
    ]);
  });

  it('is polite: a user agent naming the directory and the page about the check, then conditional requests', async () => {
    sites.set('polite', { kind: 'up', etag: '"abc"' });
    const tool = await liveTool('polite');
    await recheck({ site_ids: [tool.id] });
    await recheck({ site_ids: [tool.id] });
    const pages = sites.hits.filter((hit) => hit.host === 'polite.localhost' && hit.path === '/');
    expect(pages[0]!.userAgent).toBe('tooldir-healthcheck/1.0 (+http://tooldir.test/about/checks)');
    expect(pages[0]!.ifNoneMatch).toBeNull();
    expect(pages[1]).toMatchObject({ ifNoneMatch: '"abc"', ifModifiedSince: 'Mon, 02 Nov 2026 10:00:00 GMT' });
    expect(await healthOf(tool.id)).toMatchObject({ state: 'ok' });
  });
});

describe('rounds', () => {
  it('a round checks only the due tools, each once a UTC day, and a round that died resumes without checking twice', async () => {
    sites.set('due-a', { kind: 'up' });
    sites.set('due-b', { kind: 'up' });
    sites.set('not-due', { kind: 'up' });
    const a = await liveTool('due-a');
    const b = await liveTool('due-b');
    const later = await liveTool('not-due');
    // Everything else in this database is due tomorrow; these two are due now, `later` in an hour.
    await t.deps.db.execute(
      sql`UPDATE site_health SET next_check_at = ${new Date(clock.getTime() - 1000).toISOString()}::timestamptz WHERE site_id IN (${a.id}, ${b.id})`,
    );
    await t.deps.db.execute(
      sql`UPDATE site_health SET next_check_at = ${new Date(clock.getTime() + 3_600_000).toISOString()}::timestamptz WHERE site_id = ${later.id}`,
    );
    const hitsOf = (host: string) => sites.hits.filter((hit) => hit.host === host && hit.path === '/').length;

    // A round that claims one tool and dies before checking it: the claim's lease keeps it from this minute's rounds.
    const [claimed] = await queryRows<{ site_id: string }>(
      t.deps.db,
      sql`UPDATE site_health SET next_check_at = ${clock.toISOString()}::timestamptz + interval '10 minutes' WHERE site_id = ${a.id} RETURNING site_id`,
    );
    expect(claimed).toBeDefined();
    const first = await runHealthRound(t.deps);
    expect(first.checked).toBe(1); // b alone
    expect(hitsOf('due-b.localhost')).toBe(1);
    expect(hitsOf('due-a.localhost')).toBe(0);

    clock = new Date(clock.getTime() + 11 * 60_000); // the lease ran out: a is due again, b is not (tomorrow)
    const resumed = await runHealthRound(t.deps);
    expect(resumed.checked).toBe(1);
    expect(hitsOf('due-a.localhost')).toBe(1);
    expect(hitsOf('due-b.localhost')).toBe(1);

    const again = await runHealthRound(t.deps);
    expect(again.checked).toBe(0);
    const next = (await healthOf(b.id)).next_check_at as Date | string;
    expect(new Date(next).toISOString().slice(0, 10)).toBe(
      new Date(clock.getTime() + 86_400_000).toISOString().slice(0, 10),
    );
    expect(hitsOf('not-due.localhost')).toBe(0);
  });

  it('an explicit request checks a tool again the same day; a tool that is not live is not checked', async () => {
    sites.set('twice', { kind: 'up' });
    const tool = await liveTool('twice');
    const [gone] = await seedTools(t.deps.db, [{ name: 'Health rejected', status: 'rejected' }]);
    await recheck({ site_ids: [tool.id] });
    const res = await recheck({ site_ids: [tool.id, gone!.id] });
    expect(await res.json()).toMatchObject({ claimed: 1, checked: 1 });
    expect(sites.hits.filter((hit) => hit.host === 'twice.localhost' && hit.path === '/')).toHaveLength(2);
  });

  it('refuses bad bodies in the error shape and without the operator token', async () => {
    for (const body of [
      { site_ids: ['nope'] },
      { site_ids: [] },
      { site_ids: 'x' },
      { other: 1 },
      { site_ids: Array.from({ length: 101 }, () => crypto.randomUUID()) },
    ]) {
      const res = await recheck(body);
      expect(res.status).toBe(400);
      expect((await res.json()).error.code).toBe('invalid_request');
    }
    const broken = await t.request('/api/jobs/recheck', {
      method: 'POST',
      key: ADMIN_TOKEN,
      body: '{',
      headers: { 'content-type': 'application/json' },
    });
    expect(broken.status).toBe(400);
    const anonymous = await t.request('/api/jobs/recheck', { method: 'POST', json: {} });
    expect(anonymous.status).toBe(401);
  });
});
