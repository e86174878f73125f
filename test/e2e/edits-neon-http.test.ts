// Edits on real PostgreSQL through the production driver (drizzle neon-http against the Neon SQL-over-HTTP
// stand-in): filing supersedes a pending edit and approval applies one in single statements, so concurrent
// decisions hold without interactive transactions (docs/pipeline.md "Edits").
import { afterAll, beforeAll, expect, it } from 'vitest';
import { findPostgresBinaries, type PostgresServer } from '../helpers/services/postgres';
import { requireService } from '../helpers/services/require-service';
import type { NeonStandIn } from '../helpers/standins/neon-http';
import { startNeonDatabase } from '../helpers/standins/neon-database';
import { ADMIN_TOKEN, createTestApp, uniqueName, type TestApp } from '../helpers/test-app';
import { seedOwnedTool } from '../helpers/owned-tools';

const describePg = requireService('PostgreSQL', findPostgresBinaries() !== null);

describePg('edits, PostgreSQL through drizzle neon-http', () => {
  let pg: PostgresServer;
  let neon: NeonStandIn;
  let t: TestApp;

  beforeAll(async () => {
    const started = await startNeonDatabase({ poolSize: 20 });
    ({ pg, neon } = started);
    t = await createTestApp({ db: { db: started.db, close: async () => {} } });
  });
  afterAll(async () => {
    await t?.close();
    await neon?.close();
    await pg?.close();
  });

  const review = (editId: string, decision: string) =>
    t.request(`/api/v1/admin/edits/${editId}/review`, { method: 'POST', key: ADMIN_TOKEN, json: { decision } });

  async function fileEdit(proposal: { name?: string; description?: string }) {
    const member = await t.member('member');
    const tool = await seedOwnedTool(t.deps.db, member.accountId, { name: uniqueName('Pg Edit') });
    const res = await t.request(`/api/v1/sites/${tool.id}`, { method: 'PATCH', key: member.key, json: proposal });
    expect(res.status).toBe(202);
    const editId = ((await res.json()) as { pending_edit: { edit_id: string } }).pending_edit.edit_id;
    const record = async () => (await t.request(`/api/v1/sites/${tool.id}`, { key: member.key })).json();
    return { ...tool, editId, member, record };
  }

  it('of 8 concurrent decisions on one edit, exactly one applies', async () => {
    const tool = await fileEdit({ description: 'Raced on PostgreSQL.' });
    const decisions = ['approve', 'reject', 'approve', 'approve', 'reject', 'approve', 'approve', 'approve'];
    const results = await Promise.all(decisions.map((d) => review(tool.editId, d)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    const winner = decisions[results.findIndex((r) => r.status === 200)]!;
    const record = await tool.record();
    expect(record.last_edit.status).toBe(winner === 'approve' ? 'approved' : 'rejected');
    const publicTool = await (await t.request(`/api/v1/tools/${tool.slug}`)).json();
    expect(publicTool.description).toBe(winner === 'approve' ? 'Raced on PostgreSQL.' : 'The original description.');
  });

  it('of concurrent approvals of edits proposing one name, one wins and the others get already_submitted', async () => {
    const name = uniqueName('Contested Pg');
    const tools = await Promise.all([1, 2, 3, 4].map(() => fileEdit({ name })));
    const results = await Promise.all(tools.map((tool) => review(tool.editId, 'approve')));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    for (const r of results.filter((x) => x.status === 409))
      expect((await r.json()).error.code).toBe('already_submitted');
    const names = await Promise.all(tools.map(async (tool) => (await tool.record()).name));
    expect(names.filter((n) => n === name)).toHaveLength(1);
  });

  it('a newer edit supersedes the pending one in one statement; concurrent edits leave exactly one pending', async () => {
    const tool = await fileEdit({ description: 'First.' });
    const second = await t.request(`/api/v1/sites/${tool.id}`, {
      method: 'PATCH',
      key: tool.member.key,
      json: { description: 'Second.' },
    });
    expect(second.status).toBe(202);
    expect((await review(tool.editId, 'approve')).status).toBe(409);
    const results = await Promise.all(
      [1, 2, 3, 4, 5].map((n) =>
        t.request(`/api/v1/sites/${tool.id}`, {
          method: 'PATCH',
          key: tool.member.key,
          json: { description: `Version ${n}.` },
        }),
      ),
    );
    for (const r of results) expect([202, 409]).toContain(r.status);
    expect(results.some((r) => r.status === 202)).toBe(true);
    const record = await tool.record();
    expect(record.pending_edit.description).toMatch(/^Version \d\.$/);
    expect((await review(record.pending_edit.edit_id, 'approve')).status).toBe(200);
    expect((await (await t.request(`/api/v1/tools/${tool.slug}`)).json()).description).toBe(
      record.pending_edit.description,
    );
  });
});
