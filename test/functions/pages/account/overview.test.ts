import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../../src/db/client';
import { ADMIN_TOKEN, createTestApp, type TestApp, uniqueUrl } from '../../../helpers/test-app';
import { seedOwnedTool } from '../../../helpers/owned-tools';
import { PageClient } from './account-client';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('account overview', () => {
  it("shows the member's tier, status, today's quota use and submissions with their links", async () => {
    const m = await t.member('member');
    const queuedUrl = uniqueUrl();
    expect(
      (
        await t.request('/api/v1/submit-site', {
          method: 'POST',
          key: m.key,
          json: { name: 'Queued <Tool>', url: queuedUrl },
        })
      ).status,
    ).toBe(201);
    const paid = await t.request('/api/v1/submit-site', {
      method: 'POST',
      key: m.key,
      json: { name: 'Sponsor Tool', url: uniqueUrl(), plan: 'sponsored' },
    });
    expect(paid.status).toBe(402);
    const { checkout_url } = (await paid.json()) as { checkout_url: string };

    const client = new PageClient(t);
    await client.signIn(m.email);
    const { res, html } = await client.page('/account');
    expect(res.status).toBe(200);
    expect(html).toMatch(/id="tier">Member</);
    expect(html).toMatch(/id="membership-status">active</);
    expect(html).toMatch(/id="quota">1 of 5</);
    expect(html).toContain('Queued &lt;Tool&gt;');
    expect(html).not.toContain('Queued <Tool>');
    // The status cell also says where the submission waits (docs/submission-progress.md); its history is on its page.
    expect(html).toMatch(
      /<td data-label="Status"><span class="status queued" data-status="queued">queued for crawling<\/span><div class="queue small">\d+(st|nd|rd|th) in line for crawling[^<]*<\/div><\/td>\n<td data-label="Plan" class="word">basic<\/td>/,
    );
    expect(html).toMatch(
      /<td data-label="Status"><span class="status pending_payment" data-status="pending_payment">waiting for payment<\/span><\/td>\n<td data-label="Plan" class="word">sponsored<\/td>/,
    );
    expect(html).toContain(`<a href="${checkout_url.replace(/&/g, '&amp;')}">Pay now</a>`);
  });

  it('links a live submission to its public page', async () => {
    const m = await t.member('member');
    const res = await t.request('/api/v1/submit-site', {
      method: 'POST',
      key: m.key,
      json: { name: 'Live Tool', url: uniqueUrl() },
    });
    const { site_id } = (await res.json()) as { site_id: string };
    await queryRows(
      t.deps.db,
      sql`UPDATE sites SET status = 'live', live_url = 'http://tooldir.test/tools/live-tool', slug = ${`live-tool-${site_id.slice(0, 8)}`} WHERE id = ${site_id}`,
    );
    const client = new PageClient(t);
    await client.signIn(m.email);
    const { html } = await client.page('/account');
    expect(html).toContain('<a href="http://tooldir.test/tools/live-tool">Public page</a>');
  });

  it("shows a live tool's edit waiting for review, then the editor's decision with its reason", async () => {
    const m = await t.member('member');
    const tool = await seedOwnedTool(t.deps.db, m.accountId, { name: 'Editable Tool' });
    const filed = await t.request(`/api/v1/sites/${tool.id}`, {
      method: 'PATCH',
      key: m.key,
      json: { name: 'Edited <Tool>', description: 'Better words.' },
    });
    expect(filed.status).toBe(202);
    const { pending_edit } = (await filed.json()) as { pending_edit: { edit_id: string } };
    const client = new PageClient(t);
    await client.signIn(m.email);
    let { html } = await client.page('/account');
    expect(html).toMatch(
      /<div class="edit pending small">Edit waiting for review since [^<]*: name &quot;Edited &lt;Tool&gt;&quot;, a new description<\/div>/,
    );
    expect(html).not.toContain('class="edit last');

    const decided = await t.request(`/api/v1/admin/edits/${pending_edit.edit_id}/review`, {
      method: 'POST',
      key: ADMIN_TOKEN,
      json: { decision: 'reject', reason: 'The name <misleads>' },
    });
    expect(decided.status).toBe(200);
    ({ html } = await client.page('/account'));
    expect(html).not.toContain('class="edit pending');
    expect(html).toMatch(/<div class="edit last small">Last edit rejected [^<]*: The name &lt;misleads&gt;<\/div>/);
  });

  it('tells an account without membership what it can do: submit and pay per tool, keys, webhooks, its submissions', async () => {
    const m = await t.member('none');
    const client = new PageClient(t);
    await client.signIn(m.email);
    const { html } = await client.page('/account');
    expect(
      html,
    ).toContain(`<p id="no-membership">You have no membership. You can still submit any tool and pay for each one
(from 15.90 USD once), create API keys and webhooks, and follow your submissions below.</p>`);
    expect(html).not.toMatch(/Tier: |status: <strong[^>]*>none</);
    expect(html).not.toContain('id="quota"'); // no quota line for an account that never had a membership
    expect(html).toContain('No submissions yet. <a href="/submit">Submit a tool</a>.');
  });
});
