// PATCH /api/v1/sites/{site_id}, POST /api/v1/admin/edits/{edit_id}/review and MCP edit_site: a submitter edits
// the name or description of their own live tool; the public text changes only when an editor approves
// (docs/pipeline.md "Edits"). Through the public surface.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, createTestApp, uniqueName, type TestApp } from '../../helpers/test-app';
import { seedOwnedTool } from '../../helpers/owned-tools';
import { callTool, connectMcp, resultJson } from '../mcp/mcp-client';

let t: TestApp;
// A fresh account per test: edits count against the account's submit bucket (10 a minute).
let member: Awaited<ReturnType<TestApp['member']>>;
beforeAll(async () => {
  t = await createTestApp({ env: { AUTO_APPROVE: 'false' } });
});
beforeEach(async () => {
  member = await t.member('member');
});
afterAll(() => t.close());

const edit = (siteId: string, json: unknown, key = member.key) => t.request(`/api/v1/sites/${siteId}`, { method: 'PATCH', key, json });
const review = (editId: string, json: unknown, key: string | null = ADMIN_TOKEN) =>
  t.request(`/api/v1/admin/edits/${editId}/review`, { method: 'POST', key: key ?? undefined, json });
const record = async (siteId: string, key = member.key) => (await t.request(`/api/v1/sites/${siteId}`, { key })).json();
const publicTool = async (slug: string) => (await t.request(`/api/v1/tools/${slug}`)).json();
const publicPage = async (slug: string) => (await t.request(`/tools/${slug}`)).text();
const ownTool = (name = uniqueName('Edit Tool'), status?: 'live' | 'pending_review' | 'rejected' | 'crawl_failed') =>
  seedOwnedTool(t.deps.db, member.accountId, { name, status });

describe('an approved edit', () => {
  it('files a pending edit (202), keeps the public text until approval, then changes page, API and search', async () => {
    const oldName = uniqueName('Quillsmith');
    const tool = await ownTool(oldName);
    const newName = uniqueName('Inkwright');
    const res = await edit(tool.id, { name: `  ${newName} `, description: 'Drafts   release notes\tfrom commits.' });
    expect(res.status).toBe(202);
    const body = await res.json();
    expect(body).toMatchObject({ site_id: tool.id, name: oldName, status: 'live' });
    expect(body.pending_edit).toEqual({
      edit_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: newName,
      description: 'Drafts release notes from commits.',
      submitted_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(body).not.toHaveProperty('last_edit');
    expect(await record(tool.id)).toEqual(body);

    // Nothing public changed yet.
    expect(await publicTool(tool.slug)).toMatchObject({ name: oldName, description: 'The original description.' });
    const before = await publicPage(tool.slug);
    expect(before).toContain(oldName);
    expect(before).not.toContain(newName);

    const approved = await review(body.pending_edit.edit_id, { decision: 'approve' });
    expect(approved.status).toBe(200);
    expect(await approved.json()).toMatchObject({ edit_id: body.pending_edit.edit_id, site_id: tool.id, status: 'approved', name: newName });

    expect(await publicTool(tool.slug)).toMatchObject({ name: newName, description: 'Drafts release notes from commits.' });
    const after = await publicPage(tool.slug);
    expect(after).toContain(newName);
    expect(after).toContain('Drafts release notes from commits.');
    const mine = await record(tool.id);
    expect(mine.name).toBe(newName);
    expect(mine).not.toHaveProperty('pending_edit');
    expect(mine.last_edit).toEqual({ edit_id: body.pending_edit.edit_id, status: 'approved', decided_at: expect.any(String) });
    // The search vector is generated from name and description, so search follows the approval.
    const found = await (await t.request(`/api/v1/tools?q=${encodeURIComponent(newName.split(' ')[1]!)}`)).json();
    expect(JSON.stringify(found)).toContain(tool.slug);
  });

  it('changes only the field an edit names; a newer edit replaces the pending one', async () => {
    const name = uniqueName('Single Field');
    const tool = await ownTool(name);
    const first = await (await edit(tool.id, { description: 'First try.' })).json();
    const second = await (await edit(tool.id, { description: 'Second try.' })).json();
    expect(second.pending_edit.edit_id).not.toBe(first.pending_edit.edit_id);
    expect(second.pending_edit).not.toHaveProperty('name');
    expect((await review(first.pending_edit.edit_id, { decision: 'approve' })).status).toBe(409);
    expect(await (await review(first.pending_edit.edit_id, { decision: 'approve' })).json()).toEqual({
      error: { code: 'conflict', message: 'The edit is already superseded.' },
    });
    expect((await review(second.pending_edit.edit_id, { decision: 'approve' })).status).toBe(200);
    expect(await publicTool(tool.slug)).toMatchObject({ name, description: 'Second try.' });
  });
});

describe('a rejected edit', () => {
  it("leaves the page unchanged and shows the editor's reason to the submitter", async () => {
    const name = uniqueName('Keeper');
    const tool = await ownTool(name);
    const filed = await (await edit(tool.id, { name: uniqueName('Spammy Best AI'), description: 'Buy now!!!' })).json();
    const res = await review(filed.pending_edit.edit_id, { decision: 'reject', reason: 'Names must describe the tool, not advertise.' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'rejected', reason: 'Names must describe the tool, not advertise.' });
    const mine = await record(tool.id);
    expect(mine.name).toBe(name);
    expect(mine).not.toHaveProperty('pending_edit');
    expect(mine.last_edit).toEqual({
      edit_id: filed.pending_edit.edit_id,
      status: 'rejected',
      reason: 'Names must describe the tool, not advertise.',
      decided_at: expect.any(String),
    });
    expect(await publicTool(tool.slug)).toMatchObject({ name, description: 'The original description.' });
    expect(await publicPage(tool.slug)).not.toContain('Buy now');
    // A decided edit stays decided.
    expect((await review(filed.pending_edit.edit_id, { decision: 'approve' })).status).toBe(409);
    expect((await record(tool.id)).name).toBe(name);
  });
});

describe('duplicate names', () => {
  it('refuses at filing a name another tool holds (confusables and case included), like submit', async () => {
    const holderName = uniqueName('Canon Base');
    await seedOwnedTool(t.deps.db, (await t.member()).accountId, { name: holderName });
    const tool = await ownTool();
    // Cyrillic С and full-width letters: the same normalised name.
    const lookalike = `С${holderName.slice(1)}`.toUpperCase().replace('A', 'Ａ');
    for (const name of [holderName, holderName.toLowerCase(), lookalike]) {
      const res = await edit(tool.id, { name });
      expect(res.status).toBe(409);
      expect(await res.json()).toEqual({ error: { code: 'already_submitted', message: 'This URL or name has already been submitted.' } });
    }
    expect(await record(tool.id)).not.toHaveProperty('pending_edit');
    // One's own current name in another case is not a duplicate.
    const own = await ownTool(uniqueName('Own Name'));
    const recased = await edit(own.id, { name: (await record(own.id)).name.toUpperCase() });
    expect(recased.status).toBe(202);
  });

  it('checks again at approval: a tool that took the name meanwhile wins, and the edit stays pending', async () => {
    const tool = await ownTool();
    const wanted = uniqueName('Wanted Name');
    const filed = await (await edit(tool.id, { name: wanted })).json();
    // Another submitter's tool takes the name before an editor gets to the edit.
    const submitter = await t.member('member');
    const submit = await t.request('/api/v1/submit-site', {
      method: 'POST',
      key: submitter.key,
      json: { name: wanted.toLowerCase(), url: `https://wanted-${crypto.randomUUID().slice(0, 8)}.example` },
    });
    expect(submit.status).toBe(201);
    const res = await review(filed.pending_edit.edit_id, { decision: 'approve' });
    expect(res.status).toBe(409);
    expect((await res.json()).error.code).toBe('already_submitted');
    const mine = await record(tool.id);
    expect(mine.name).not.toBe(wanted);
    expect(mine.pending_edit.edit_id).toBe(filed.pending_edit.edit_id);
    expect((await review(filed.pending_edit.edit_id, { decision: 'reject', reason: 'Name taken.' })).status).toBe(200);
  });

  it('of two pending edits proposing one name, the first approved wins', async () => {
    const name = uniqueName('Contested');
    const a = await ownTool();
    const b = await ownTool();
    const editA = (await (await edit(a.id, { name })).json()).pending_edit.edit_id;
    const editB = (await (await edit(b.id, { name })).json()).pending_edit.edit_id;
    expect((await review(editA, { decision: 'approve' })).status).toBe(200);
    expect((await (await review(editB, { decision: 'approve' })).json()).error.code).toBe('already_submitted');
    expect((await record(a.id)).name).toBe(name);
    expect((await record(b.id)).name).not.toBe(name);
  });
});

describe('concurrency', () => {
  it('of concurrent approvals and rejections of one edit, exactly one wins', async () => {
    const tool = await ownTool();
    const filed = await (await edit(tool.id, { description: 'Raced.' })).json();
    const results = await Promise.all(
      ['approve', 'reject', 'approve', 'approve', 'reject'].map((decision) => review(filed.pending_edit.edit_id, { decision })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    const mine = await record(tool.id);
    expect(mine.last_edit.edit_id).toBe(filed.pending_edit.edit_id);
    expect((await publicTool(tool.slug)).description).toBe(mine.last_edit.status === 'approved' ? 'Raced.' : 'The original description.');
  });

  it('concurrent edits of one tool leave exactly one pending edit', async () => {
    const tool = await ownTool();
    const results = await Promise.all([1, 2, 3, 4].map((n) => edit(tool.id, { description: `Version ${n}.` })));
    for (const r of results) expect([202, 409]).toContain(r.status);
    expect(results.some((r) => r.status === 202)).toBe(true);
    const mine = await record(tool.id);
    expect(mine.pending_edit.description).toMatch(/^Version \d\.$/);
  });
});

describe('refusals', () => {
  it('refuses tools that are not live with 409 invalid_state naming the status', async () => {
    for (const status of ['pending_review', 'rejected', 'crawl_failed'] as const) {
      const tool = await ownTool(uniqueName('Not Live'), status);
      const res = await edit(tool.id, { description: 'Nope.' });
      expect(res.status).toBe(409);
      expect(await res.json()).toEqual({ error: { code: 'invalid_state', message: `Only a live tool can be edited; this submission is ${status}.` } });
      expect(await record(tool.id)).not.toHaveProperty('pending_edit');
    }
  });

  it("answers 404 for another account's tool, an unknown id and a malformed id; 401 without a key", async () => {
    const tool = await ownTool();
    const stranger = await t.member('member');
    for (const id of [tool.id, crypto.randomUUID(), 'not-a-uuid']) {
      const res = await edit(id, { description: 'Mine now.' }, stranger.key);
      expect(res.status).toBe(404);
      expect((await res.json()).error.code).toBe('not_found');
    }
    expect((await t.request(`/api/v1/sites/${tool.id}`, { method: 'PATCH', json: { description: 'x' } })).status).toBe(401);
    expect(await record(tool.id)).not.toHaveProperty('pending_edit');
  });

  it('answers 400 naming the field for malformed bodies, and never 5xx', async () => {
    const tool = await ownTool();
    const cases: Array<[unknown, string]> = [
      [{}, 'name or description'],
      [{ name: 'x' }, 'name must be 2 to 100 characters'],
      [{ name: 'y'.repeat(101) }, 'name must be 2 to 100 characters'],
      [{ name: 42 }, 'name must be a string'],
      [{ name: 'Evil\u202eName' }, 'name must not contain bidirectional overrides'],
      [{ description: '' }, 'description must be 1 to 500 characters'],
      [{ description: 'd'.repeat(501) }, 'description must be 1 to 500 characters'],
      [{ description: ['list'] }, 'description must be a string'],
      [{ description: 'bell\u0007' }, 'description must not contain control characters'],
      [{ description: '\ud800 lone surrogate' }, 'description must be valid Unicode text'],
      [{ name: null }, 'name must be a string'],
    ];
    for (const [json, message] of cases) {
      const res = await edit(tool.id, json);
      expect(res.status, JSON.stringify(json)).toBe(400);
      const body = await res.json();
      expect(body.error.code).toBe('invalid_request');
      expect(body.error.message).toContain(message);
    }
    for (const raw of ['not json', '[1,2]', 'null']) {
      const res = await t.request(`/api/v1/sites/${tool.id}`, { method: 'PATCH', key: member.key, body: raw, headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(400);
    }
    expect((await t.request(`/api/v1/sites/${tool.id}`, { method: 'PATCH', key: member.key, body: 'name=x' })).status).toBe(400);
    expect(await record(tool.id)).not.toHaveProperty('pending_edit');
  });

  it('the review endpoint needs the operator token and a valid body', async () => {
    const tool = await ownTool();
    const filed = await (await edit(tool.id, { description: 'Needs an operator.' })).json();
    const id = filed.pending_edit.edit_id;
    expect((await review(id, { decision: 'approve' }, null)).status).toBe(401);
    expect((await review(id, { decision: 'approve' }, 'wrong-token-000000000000')).status).toBe(401);
    // A submitter's own API key is not an operator token.
    expect((await review(id, { decision: 'approve' }, member.key)).status).toBe(401);
    const bad = await review(id, { decision: 'maybe' });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.message).toContain('approve or reject');
    expect((await review(id, { decision: 'reject', reason: 'r'.repeat(1001) })).status).toBe(400);
    expect((await review(crypto.randomUUID(), { decision: 'approve' })).status).toBe(404);
    expect((await review('not-a-uuid', { decision: 'approve' })).status).toBe(404);
    expect((await record(tool.id)).pending_edit.edit_id).toBe(id);
    expect((await publicTool(tool.slug)).description).toBe('The original description.');
  });

  it('an edit of a tool taken down before approval cannot be approved (409 invalid_state)', async () => {
    const tool = await ownTool();
    const filed = await (await edit(tool.id, { description: 'Too late.' })).json();
    const takedown = await t.request(`/api/v1/admin/sites/${tool.id}/review`, { method: 'POST', key: ADMIN_TOKEN, json: { decision: 'reject', reason: 'gone' } });
    expect(takedown.status).toBe(200);
    const res = await review(filed.pending_edit.edit_id, { decision: 'approve' });
    expect(res.status).toBe(409);
    expect((await res.json()).error.code).toBe('invalid_state');
  });
});

describe('hostile text', () => {
  it('is escaped on the public page after approval', async () => {
    const tool = await ownTool();
    const name = `<script>alert(1)</script> ${crypto.randomUUID().slice(0, 6)}`;
    const filed = await (await edit(tool.id, { name, description: '"><img src=x onerror=alert(2)> & more' })).json();
    expect((await review(filed.pending_edit.edit_id, { decision: 'approve' })).status).toBe(200);
    const page = await publicPage(tool.slug);
    expect(page).not.toContain('<script>alert(1)');
    expect(page).not.toContain('<img src=x');
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).toContain('&quot;&gt;&lt;img src=x onerror=alert(2)&gt; &amp; more');
  });
});

describe('MCP edit_site', () => {
  it('files the same edit as PATCH and refuses the same way', async () => {
    const tool = await ownTool();
    const mcp = await connectMcp(t, { key: member.key });
    const newName = uniqueName('Via Mcp');
    const result = await callTool(mcp, 'edit_site', { site_id: tool.id, name: newName });
    expect(result.isError).toBeFalsy();
    const body = resultJson(result) as { pending_edit: { edit_id: string; name: string } };
    expect(body.pending_edit.name).toBe(newName);
    expect(result.structuredContent).toEqual(body);
    expect((await review(body.pending_edit.edit_id, { decision: 'reject', reason: 'Try again' })).status).toBe(200);
    const status = await callTool(mcp, 'get_site_status', { site_id: tool.id });
    expect(resultJson(status)).toMatchObject({ last_edit: { status: 'rejected', reason: 'Try again' } });

    const empty = await callTool(mcp, 'edit_site', { site_id: tool.id });
    expect(empty.isError).toBe(true);
    expect(resultJson(empty)).toMatchObject({ error: { code: 'invalid_request' } });
    const short = await callTool(mcp, 'edit_site', { site_id: tool.id, name: 'x' });
    expect(short.isError).toBe(true);
    expect(JSON.stringify(resultJson(short))).toContain('name must be 2 to 100 characters');
    const notMine = await callTool(mcp, 'edit_site', { site_id: crypto.randomUUID(), description: 'x' });
    expect(resultJson(notMine)).toMatchObject({ error: { code: 'not_found' } });
    await mcp.close();
  });
});

describe('openapi.json', () => {
  it('documents the edit, its review and the record fields', async () => {
    const doc = await (await t.request('/api/v1/openapi.json')).json();
    const patch = doc.paths['/api/v1/sites/{site_id}'].patch;
    expect(patch.operationId).toBe('editSite');
    expect(Object.keys(patch.responses).sort()).toEqual(['202', '400', '401', '404', '409', '413', '429', '500', '503']);
    expect(Object.keys(doc.components.schemas.EditRequest.properties).sort()).toEqual(['description', 'name']);
    const reviewOp = doc.paths['/api/v1/admin/edits/{edit_id}/review'].post;
    expect(reviewOp.security).toEqual([{ operatorToken: [] }]);
    expect(Object.keys(reviewOp.responses).sort()).toEqual(['200', '400', '401', '404', '409', '429']);
    expect(Object.keys(doc.components.schemas.SiteRecord.properties)).toEqual(expect.arrayContaining(['pending_edit', 'last_edit']));
    expect(doc.components.schemas.LastEdit.properties.status.enum).toEqual(['approved', 'rejected']);
  });
});
