// PATCH /api/v1/sites/{site_id}, POST /api/v1/admin/edits/{edit_id}/review and MCP edit_site: a submitter edits
// the name or description of their own live tool; the public text changes only when an editor approves
// (docs/pipeline.md "Edits"). Through the public surface. Refusals: site-edits-refusals.test.ts.
import { slugify } from '../../../../src/pipeline/slug';
import { describe, expect, it } from 'vitest';
import { uniqueName } from '../../../helpers/test-app';
import { seedOwnedTool } from '../../../helpers/owned-tools';
import { editCalls, useEditHarness } from './site-edits-harness';
import { callTool, connectMcp, resultJson } from '../../mcp/mcp-client';

const h = useEditHarness();
const { edit, review, record, publicTool, publicPage, ownTool } = editCalls(h);

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
    expect(await approved.json()).toMatchObject({
      edit_id: body.pending_edit.edit_id,
      site_id: tool.id,
      status: 'approved',
      name: newName,
    });

    // The rename gives the tool the slug of its new name; the old one answers 301 (rename-slugs.test.ts).
    const newSlug = slugify(newName);
    expect((await record(tool.id)).live_url).toBe(`http://tooldir.test/tools/${newSlug}`);
    expect(await publicTool(newSlug)).toMatchObject({
      name: newName,
      description: 'Drafts release notes from commits.',
    });
    const after = await publicPage(newSlug);
    expect(after).toContain(newName);
    expect(after).toContain('Drafts release notes from commits.');
    const mine = await record(tool.id);
    expect(mine.name).toBe(newName);
    expect(mine).not.toHaveProperty('pending_edit');
    expect(mine.last_edit).toEqual({
      edit_id: body.pending_edit.edit_id,
      status: 'approved',
      decided_at: expect.any(String),
    });
    // The search vector is generated from name and description, so search follows the approval.
    const found = await (await h.t.request(`/api/v1/tools?q=${encodeURIComponent(newName.split(' ')[1]!)}`)).json();
    expect(JSON.stringify(found)).toContain(newSlug);
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
    const res = await review(filed.pending_edit.edit_id, {
      decision: 'reject',
      reason: 'Names must describe the tool, not advertise.',
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      status: 'rejected',
      reason: 'Names must describe the tool, not advertise.',
    });
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
    const holder = await seedOwnedTool(h.t.deps.db, (await h.t.member()).accountId, { name: holderName });
    const tool = await ownTool();
    // Cyrillic С and full-width letters: the same normalised name.
    const lookalike = `С${holderName.slice(1)}`.toUpperCase().replace('A', 'Ａ');
    // A blank filler as its space (issue 27): U+2800 draws a blank, so it is the same name.
    for (const name of [holderName, holderName.toLowerCase(), lookalike, holderName.replaceAll(' ', '\u2800')]) {
      const res = await edit(tool.id, { name });
      expect(res.status).toBe(409);
      // The live holder's page is named, as the submit form and a submit's 409 name it.
      expect(await res.json()).toEqual({
        error: {
          code: 'already_submitted',
          message: `A tool with this name is already listed: see its page at ${h.t.deps.origin}/tools/${holder.slug}`,
        },
      });
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
    const submitter = await h.t.member('member');
    const submit = await h.t.request('/api/v1/submit-site', {
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
      ['approve', 'reject', 'approve', 'approve', 'reject'].map((decision) =>
        review(filed.pending_edit.edit_id, { decision }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    const mine = await record(tool.id);
    expect(mine.last_edit.edit_id).toBe(filed.pending_edit.edit_id);
    expect((await publicTool(tool.slug)).description).toBe(
      mine.last_edit.status === 'approved' ? 'Raced.' : 'The original description.',
    );
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

describe('MCP edit_site', () => {
  it('files the same edit as PATCH and refuses the same way', async () => {
    const tool = await ownTool();
    const mcp = await connectMcp(h.t, { key: h.member.key });
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
