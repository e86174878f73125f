// Before a tool goes live its maker sees the text that will be published and can propose another, through the
// same edit as for a live tool (issue 31 point 7): the submission page in review shows the crawled name and
// description with "Suggest an edit"; the editor decides the edit; the page that goes live shows the approved text;
// and the tool page does not repeat the crawled title under the name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, ADMIN_TOKEN, uniqueName, type TestApp } from '../../../helpers/test-app';
import { seedOwnedTool } from '../../../helpers/owned-tools';
import { recordingQueue } from '../../../helpers/stripe/payments-fixture';
import { decideReview } from '../../../../src/pipeline/decide-review';
import { csrfOf, signedInMember } from './account-client';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ overrides: { queue: recordingQueue() } });
});
afterAll(() => t.close());

describe('the text that will be published, before the tool goes live', () => {
  it('is shown in review, can be changed by an edit the editor approves, and is what the live page shows', async () => {
    const { m, client } = await signedInMember(t, 'member');
    const name = uniqueName('Preview');
    const tool = await seedOwnedTool(t.deps.db, m.accountId, {
      name,
      description: 'Crawled words from the site.',
      status: 'pending_review',
    });

    let { html } = await client.page(`/account/submissions/${tool.id}`);
    expect(html).toContain('<h2 id="preview-title">What will be published</h2>');
    expect(html).toContain(`<dd id="preview-name">${name}</dd>`);
    expect(html).toContain('<dd id="preview-description">Crawled words from the site.</dd>');
    expect(html).toContain('id="edit"'); // the same "Suggest an edit" form as a live tool's

    const filed = await client.request(`/account/submissions/${tool.id}/edit`, {
      form: { _csrf: csrfOf(html), name: '', description: 'What the tool really does.' },
    });
    expect([200, 303]).toContain(filed.status);
    const detail = await (await t.request(`/api/v1/sites/${tool.id}`, { key: m.key })).json();
    expect(detail.pending_edit).toMatchObject({ description: 'What the tool really does.' });

    // The editor's queue has it; approving it changes the text that will be published.
    const approved = await t.request(`/api/v1/admin/edits/${detail.pending_edit.edit_id}/review`, {
      method: 'POST',
      key: ADMIN_TOKEN,
      json: { decision: 'approve' },
    });
    expect(approved.status).toBe(200);
    ({ html } = await client.page(`/account/submissions/${tool.id}`));
    expect(html).toContain('<dd id="preview-description">What the tool really does.</dd>');

    await decideReview(t.deps, tool.id, { decision: 'approve' });
    const live = await (await t.request(`/api/v1/sites/${tool.id}`, { key: m.key })).json();
    expect(live.status).toBe('live');
    const slug = new URL(live.live_url).pathname.split('/').pop();
    const page = await (await t.request(`/tools/${slug}`)).text();
    expect(page).toContain('<p>What the tool really does.</p>');
    expect(page).not.toContain('Crawled words from the site.');
  });

  it('is the API edit too: PATCH in review files an edit; before the crawl the page says the text comes later', async () => {
    const { m, client } = await signedInMember(t, 'member');
    const tool = await seedOwnedTool(t.deps.db, m.accountId, {
      name: uniqueName('Api Preview'),
      status: 'pending_review',
    });
    const res = await t.request(`/api/v1/sites/${tool.id}`, {
      method: 'PATCH',
      key: m.key,
      json: { description: 'Proposed in review.' },
    });
    expect(res.status).toBe(202); // filed, as for a live tool
    expect((await res.json()).pending_edit).toMatchObject({ description: 'Proposed in review.' });
    const queued = await seedOwnedTool(t.deps.db, m.accountId, {
      name: uniqueName('Queued Preview'),
      status: 'queued',
    });
    const { html } = await client.page(`/account/submissions/${queued.id}`);
    expect(html).toContain('The description is read from your site when it is crawled');
    expect(html).not.toContain('id="edit"');
  });
});

describe('the tool page', () => {
  it('shows the name once: the crawled title is not repeated under it', async () => {
    const owner = await t.member('member');
    const name = uniqueName('Titled');
    const tool = await seedOwnedTool(t.deps.db, owner.accountId, { name });
    // The crawl kept the site's own <title>, which usually repeats the name with a slogan.
    const { queryRows } = await import('../../../../src/db/client');
    const { sql } = await import('drizzle-orm');
    await queryRows(
      t.deps.db,
      sql`UPDATE sites SET metadata = metadata || ${JSON.stringify({ title: `${name} – The best AI for everything` })}::jsonb WHERE id = ${tool.id}::uuid`,
    );
    const page = await (await t.request(`/tools/${tool.slug}`)).text();
    const body = page.slice(page.indexOf('<main'));
    expect(body).not.toContain('The best AI for everything');
    expect(body).toContain('The original description.');
  });
});
