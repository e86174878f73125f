// Edits refused (wrong state, another account, malformed bodies, no operator token), hostile text, and the
// OpenAPI document (docs/pipeline.md "Edits"). Through the public surface.
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, uniqueName } from '../../../helpers/test-app';
import { editCalls, useEditHarness } from './site-edits-harness';

const h = useEditHarness();
const { edit, review, record, publicTool, publicPage, ownTool } = editCalls(h);

describe('refusals', () => {
  it('refuses tools that are neither in review nor live with 409 invalid_state naming the status', async () => {
    for (const status of ['rejected', 'crawl_failed'] as const) {
      const tool = await ownTool(uniqueName('Not Live'), status);
      const res = await edit(tool.id, { description: 'Nope.' });
      expect(res.status).toBe(409);
      expect(await res.json()).toEqual({
        error: {
          code: 'invalid_state',
          message: `Only a tool in review or live can be edited; this submission is ${status}.`,
        },
      });
      expect(await record(tool.id)).not.toHaveProperty('pending_edit');
    }
  });

  it("answers 404 for another account's tool, an unknown id and a malformed id; 401 without a key", async () => {
    const tool = await ownTool();
    const stranger = await h.t.member('member');
    for (const id of [tool.id, crypto.randomUUID(), 'not-a-uuid']) {
      const res = await edit(id, { description: 'Mine now.' }, stranger.key);
      expect(res.status).toBe(404);
      expect((await res.json()).error.code).toBe('not_found');
    }
    expect(
      (await h.t.request(`/api/v1/sites/${tool.id}`, { method: 'PATCH', json: { description: 'x' } })).status,
    ).toBe(401);
    expect(await record(tool.id)).not.toHaveProperty('pending_edit');
  });

  it('answers 400 naming the field for malformed bodies, and never 5xx', async () => {
    const tool = await ownTool();
    const cases: Array<[unknown, string]> = [
      [{}, 'name, description or mcp_url'],
      [{ name: 'x' }, 'name must be 2 to 100 characters'],
      [{ name: 'y'.repeat(101) }, 'name must be 2 to 100 characters'],
      [{ name: 42 }, 'name must be a string'],
      [{ name: 'Evil\u202eName' }, 'name must not contain bidirectional overrides'],
      [{ name: '\u2800\u2800\u3164' }, 'name must contain visible characters'],
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
      const res = await h.t.request(`/api/v1/sites/${tool.id}`, {
        method: 'PATCH',
        key: h.member.key,
        body: raw,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(400);
    }
    expect(
      (await h.t.request(`/api/v1/sites/${tool.id}`, { method: 'PATCH', key: h.member.key, body: 'name=x' })).status,
    ).toBe(400);
    expect(await record(tool.id)).not.toHaveProperty('pending_edit');
  });

  it('the review endpoint needs the operator token and a valid body', async () => {
    const tool = await ownTool();
    const filed = await (await edit(tool.id, { description: 'Needs an operator.' })).json();
    const id = filed.pending_edit.edit_id;
    expect((await review(id, { decision: 'approve' }, null)).status).toBe(401);
    expect((await review(id, { decision: 'approve' }, 'wrong-token-000000000000')).status).toBe(401);
    // A submitter's own API key is not an operator token.
    expect((await review(id, { decision: 'approve' }, h.member.key)).status).toBe(401);
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
    const takedown = await h.t.request(`/api/v1/admin/sites/${tool.id}/review`, {
      method: 'POST',
      key: ADMIN_TOKEN,
      json: { decision: 'reject', reason: 'gone' },
    });
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
    // The rename moved the tool to the slug of its new name (docs/pipeline.md "Renames").
    const page = await publicPage((await record(tool.id)).live_url.split('/tools/')[1]);
    expect(page).not.toContain('<script>alert(1)');
    expect(page).not.toContain('<img src=x');
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).toContain('&quot;&gt;&lt;img src=x onerror=alert(2)&gt; &amp; more');
  });
});

describe('openapi.json', () => {
  it('documents the edit, its review and the record fields', async () => {
    const doc = await (await h.t.request('/api/v1/openapi.json')).json();
    const patch = doc.paths['/api/v1/sites/{site_id}'].patch;
    expect(patch.operationId).toBe('editSite');
    expect(Object.keys(patch.responses).sort()).toEqual([
      '202',
      '400',
      '401',
      '404',
      '409',
      '413',
      '429',
      '500',
      '503',
    ]);
    expect(Object.keys(doc.components.schemas.EditRequest.properties).sort()).toEqual([
      'description',
      'mcp_url',
      'name',
      'url',
    ]);
    const reviewOp = doc.paths['/api/v1/admin/edits/{edit_id}/review'].post;
    expect(reviewOp.security).toEqual([{ operatorToken: [] }]);
    expect(Object.keys(reviewOp.responses).sort()).toEqual(['200', '400', '401', '404', '409', '429']);
    expect(Object.keys(doc.components.schemas.SiteRecord.properties)).toEqual(
      expect.arrayContaining(['pending_edit', 'last_edit']),
    );
    expect(doc.components.schemas.LastEdit.properties.status.enum).toEqual(['approved', 'rejected']);
  });
});
