// AUTO_APPROVE (the local default): a passing site is published by the review step; a failing check waits for an editor.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client';
import { htmlPage, redirectTo, startFixtureSite, type FixtureSite } from '../../helpers/fixture-site';
import { createPipelineApp, networkViolations, type PipelineApp } from '../../helpers/pipeline-harness';

let t: PipelineApp;
let fixture: FixtureSite;
beforeAll(async () => {
  t = await createPipelineApp({ env: { BLOCKED_DOMAINS: 'blocked.localhost, other.example' } });
  fixture = await startFixtureSite();
});
afterAll(async () => {
  await t.close();
  await fixture.close();
  expect(networkViolations).toEqual([]);
});

const route = (path: string, title: string) =>
  fixture.route(path, htmlPage(`<html><head><title>${title}</title></head><body></body></html>`));

describe('automatic review', () => {
  it('publishes a passing site at once and mails the submitter', async () => {
    expect(t.deps.config.autoApprove).toBe(true);
    const m = await t.member('member');
    route('/auto', 'Auto Published Tool');
    const id = await t.submit(m.key, { name: 'Auto Tool', url: `${fixture.origin}/auto` });
    await t.settle();
    const site = await t.site(id);
    expect(site).toMatchObject({ status: 'live', slug: 'auto-tool', live_url: 'http://tooldir.test/tools/auto-tool' });
    expect((await t.history(id)).at(-1)).toMatchObject({
      from_status: 'pending_review',
      to_status: 'live',
      note: 'auto-approved: all review checks passed',
    });
    expect(await (await t.request('/tools/auto-tool')).text()).toContain('Auto Published Tool');
    const mails = await queryRows<{ subject: string }>(
      t.deps.db,
      sql`SELECT subject FROM mail_outbox WHERE "to" = ${m.email}`,
    );
    expect(mails).toEqual([{ subject: 'Auto Tool is live on tooldir' }]);
  });

  it('keeps a site on the blocklist in pending_review with the failed check recorded', async () => {
    const m = await t.member('member');
    route('/blocked', 'Blocked Tool');
    const id = await t.submit(m.key, {
      name: 'Blocked Tool',
      url: `http://www.blocked.localhost:${fixture.port}/blocked`,
    });
    await t.settle();
    const site = await t.site(id);
    expect(site.status).toBe('pending_review');
    expect(site.review_checks).toMatchObject({
      passed: false,
      checks: expect.arrayContaining([
        { name: 'domain_allowed', passed: false, detail: 'domain blocked.localhost is blocked' },
      ]),
    });
  });

  it('keeps a site whose final URL is already live under another submission in pending_review', async () => {
    const m = await t.member('member');
    route('/original', 'Original Tool');
    fixture.route('/mirror', redirectTo(`${fixture.origin}/original?utm_source=mirror`));
    const original = await t.submit(m.key, { name: 'Original Tool', url: `${fixture.origin}/original` });
    await t.settle();
    expect((await t.site(original)).status).toBe('live');
    const mirror = await t.submit(m.key, { name: 'Mirror Tool', url: `${fixture.origin}/mirror` });
    await t.settle();
    const site = await t.site(mirror);
    expect(site.status).toBe('pending_review');
    expect(site.review_checks).toMatchObject({
      passed: false,
      checks: expect.arrayContaining([
        { name: 'not_live_elsewhere', passed: false, detail: `already live as site ${original}` },
      ]),
    });
  });
});
