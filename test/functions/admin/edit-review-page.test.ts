// /admin shows submitters' pending edits (current next to proposed text) with CSRF-checked approve/reject
// forms (docs/pipeline.md "Edits").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, createTestApp, uniqueName, type TestApp } from '../../helpers/test-app';
import { seedOwnedTool } from '../../helpers/owned-tools';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { AUTO_APPROVE: 'false' } });
});
afterAll(() => t.close());

async function signIn(): Promise<string> {
  const res = await t.request('/admin/login', {
    method: 'POST',
    body: new URLSearchParams({ token: ADMIN_TOKEN }),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(res.status).toBe(303);
  return (res.headers.get('set-cookie') ?? '').split(';')[0]!;
}
const csrfOf = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
const formPost = (path: string, cookie: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  t.request(path, {
    method: 'POST',
    body: new URLSearchParams(fields),
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', ...headers },
  });
const adminPage = async (cookie: string, query = '') =>
  (await t.request(`/admin${query}`, { headers: { cookie } })).text();

/** A live tool of a fresh member with a pending edit filed through the API. */
async function toolWithEdit(name: string, proposal: { name?: string; description?: string }) {
  const member = await t.member('member');
  const tool = await seedOwnedTool(t.deps.db, member.accountId, { name });
  const res = await t.request(`/api/v1/sites/${tool.id}`, { method: 'PATCH', key: member.key, json: proposal });
  expect(res.status).toBe(202);
  const editId = ((await res.json()) as { pending_edit: { edit_id: string } }).pending_edit.edit_id;
  const record = async () => (await t.request(`/api/v1/sites/${tool.id}`, { key: member.key })).json();
  return { ...tool, editId, member, record };
}

describe('/admin pending edits', () => {
  it('shows current and proposed text escaped, and approves only with a valid CSRF token from our origin', async () => {
    const current = uniqueName('Current <b>Name</b>');
    const proposed = `<script>alert('x')</script> ${crypto.randomUUID().slice(0, 6)}`;
    const tool = await toolWithEdit(current, { name: proposed, description: '<img src=x onerror=alert(1)>' });
    const cookie = await signIn();
    const page = await adminPage(cookie);
    expect(page).toContain('Edits waiting for review');
    expect(page).toContain(`action="/admin/edits/${tool.editId}/review"`);
    expect(page).toContain(current.replace('<b>', '&lt;b&gt;').replace('</b>', '&lt;/b&gt;'));
    expect(page).toContain('&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;');
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(page).toContain('The original description.');
    expect(page).not.toContain("<script>alert('x')");
    expect(page).not.toContain('<img src=x');
    const csrf = csrfOf(page);

    const path = `/admin/edits/${tool.editId}/review`;
    expect((await formPost(path, cookie, { decision: 'approve', _csrf: 'x'.repeat(32) })).status).toBe(403);
    expect((await formPost(path, '', { decision: 'approve', _csrf: csrf })).status).toBe(403);
    expect(
      (await formPost(path, cookie, { decision: 'approve', _csrf: csrf }, { origin: 'https://evil.example' })).status,
    ).toBe(403);
    expect((await tool.record()).pending_edit.edit_id).toBe(tool.editId);

    const ok = await formPost(path, cookie, { decision: 'approve', _csrf: csrf });
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe('/admin?notice=edit_approved');
    expect(await adminPage(cookie, '?notice=edit_approved')).toContain('Edit approved');
    expect((await tool.record()).name).toBe(proposed);
    expect(await adminPage(cookie)).not.toContain(`action="/admin/edits/${tool.editId}/review"`);
    const again = await formPost(path, cookie, { decision: 'approve', _csrf: csrf });
    expect(again.headers.get('location')).toBe('/admin?notice=edit_conflict');
  });

  it('rejects with a reason the submitter then sees', async () => {
    const name = uniqueName('Rejectable');
    const tool = await toolWithEdit(name, { description: 'Now with crypto.' });
    const cookie = await signIn();
    const csrf = csrfOf(await adminPage(cookie));
    const res = await formPost(`/admin/edits/${tool.editId}/review`, cookie, {
      decision: 'reject',
      reason: 'Describe what it does.',
      _csrf: csrf,
    });
    expect(res.headers.get('location')).toBe('/admin?notice=edit_rejected');
    const record = await tool.record();
    expect(record.name).toBe(name);
    expect(record.last_edit).toMatchObject({ status: 'rejected', reason: 'Describe what it does.' });
    expect(await (await t.request(`/tools/${tool.slug}`)).text()).not.toContain('Now with crypto.');
  });

  it('says so when another tool took the name meanwhile, and treats unknown decisions and ids as invalid', async () => {
    const wanted = uniqueName('Taken Meanwhile');
    const tool = await toolWithEdit(uniqueName('Before'), { name: wanted });
    await seedOwnedTool(t.deps.db, (await t.member()).accountId, { name: wanted.toUpperCase() });
    const cookie = await signIn();
    const csrf = csrfOf(await adminPage(cookie));
    const taken = await formPost(`/admin/edits/${tool.editId}/review`, cookie, { decision: 'approve', _csrf: csrf });
    expect(taken.headers.get('location')).toBe('/admin?notice=edit_name_taken');
    expect((await tool.record()).name).not.toBe(wanted);
    const odd = await formPost(`/admin/edits/${tool.editId}/review`, cookie, { decision: 'publish', _csrf: csrf });
    expect(odd.headers.get('location')).toBe('/admin?notice=invalid');
    const unknown = await formPost('/admin/edits/not-a-uuid/review', cookie, { decision: 'approve', _csrf: csrf });
    expect(unknown.headers.get('location')).toBe('/admin?notice=invalid');
    expect((await tool.record()).pending_edit.edit_id).toBe(tool.editId);
  });
});
