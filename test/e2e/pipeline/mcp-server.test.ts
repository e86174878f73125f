// Listings with an MCP server (docs/mcp-servers.md), through the public surface with the real pipeline behind it:
// submit with mcp_url → crawl (local queue) → the record shows the tools; the server changes its tools → re-check
// → the changelog; the owner changes or clears the URL; a paid submission keeps it; bad URLs change nothing.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client';
import { htmlPage, startFixtureSite, type FixtureSite } from '../../helpers/fixture-site';
import { createPipelineApp, networkViolations, type PipelineApp } from '../../helpers/pipeline-harness';
import { startSdkMcpServer, type SdkMcpServer } from '../../helpers/mcp-test-server';
import { ADMIN_TOKEN } from '../../helpers/test-app';
import { currentSession, paidSession, recordingPayments, sendEvent } from '../../helpers/stripe/payments-fixture';
import { callTool, connectMcp } from '../../functions/mcp/mcp-client';

let t: PipelineApp;
let fixture: FixtureSite;
let mcp: SdkMcpServer;

beforeAll(async () => {
  t = await createPipelineApp({ overrides: { payments: recordingPayments() } });
  fixture = await startFixtureSite();
  mcp = await startSdkMcpServer([
    { name: 'search', title: 'Search', description: 'Finds things' },
    { name: 'fetch', description: 'Fetches a page' },
  ]);
});
afterAll(async () => {
  await t.close();
  await fixture.close();
  await mcp.close();
  expect(networkViolations).toEqual([]);
});

const unique = () => crypto.randomUUID().slice(0, 8);
const mcpAt = (path: string) => `http://mcp-${unique()}.localhost:${mcp.port}${path}`;
const detail = async (id: string, key: string) => (await t.request(`/api/v1/sites/${id}`, { key })).json();
const recheck = (id: string) =>
  t.request('/api/jobs/recheck', { method: 'POST', key: ADMIN_TOKEN, json: { site_ids: [id] } });
const patch = (id: string, json: unknown, key: string) =>
  t.request(`/api/v1/sites/${id}`, { method: 'PATCH', key, json });
const mcpRows = (id: string) =>
  queryRows<{ changed_at: string; n: number }>(
    t.deps.db,
    sql`SELECT m.changed_at::text, (SELECT count(*) FROM site_mcp_changes c WHERE c.site_id = m.site_id)::int AS n
        FROM site_mcp m WHERE m.site_id = ${id}::uuid`,
  );

async function liveToolWithMcp(mcpUrl: string) {
  const member = await t.member('member');
  const name = `Mcp Tool ${unique()}`;
  fixture.route(`/${unique()}`, htmlPage(`<title>${name}</title>`));
  const path = `/p-${unique()}`;
  fixture.route(path, htmlPage(`<html><head><title>${name}</title></head><body></body></html>`));
  const res = await t.request('/api/v1/submit-site', {
    method: 'POST',
    key: member.key,
    json: { name, url: `${fixture.origin}${path}`, mcp_url: mcpUrl },
  });
  expect(res.status).toBe(201);
  const { site_id: id } = (await res.json()) as { site_id: string };
  await t.settle();
  expect((await t.site(id)).status).toBe('live');
  return { id, member };
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 100; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('condition not reached');
}

describe('a listing with an MCP server', () => {
  it('is probed at crawl time; a re-check records the changed tools in the changelog', async () => {
    mcp.setTools([
      { name: 'search', title: 'Search', description: 'Finds things' },
      { name: 'fetch', description: 'Fetches a page' },
    ]);
    const mcpUrl = mcpAt('/mcp');
    const { id, member } = await liveToolWithMcp(mcpUrl);
    const first = await detail(id, member.key);
    expect(first.mcp_url).toBe(mcpUrl);
    expect(first.mcp).toMatchObject({
      url: mcpUrl,
      status: 'reachable',
      reason_kind: null,
      reason: null,
      transport: 'streamable_http',
      protocol_version: '2025-11-25',
      server: { name: 'acme-test-mcp', version: '1.2.3' },
      tool_count: 2,
      changelog: [],
    });
    expect(first.mcp.tools.map((tool: { name: string }) => tool.name)).toEqual(['search', 'fetch']);
    expect(first.mcp.checked_at).toMatch(/Z$/);

    // Nothing changed: a re-check moves checked_at, not changed_at, and writes no changelog.
    const [before] = await mcpRows(id);
    expect((await recheck(id)).status).toBe(200);
    const [same] = await mcpRows(id);
    expect(same).toEqual(before);

    mcp.setTools([
      { name: 'search', title: 'Search', description: 'Finds things, faster' },
      { name: 'summarize', description: 'Summarizes a page' },
    ]);
    expect((await recheck(id)).status).toBe(200);
    const after = await detail(id, member.key);
    expect(after.mcp.tools.map((tool: { name: string }) => tool.name)).toEqual(['search', 'summarize']);
    expect(after.mcp.changelog).toEqual([
      { changed_at: expect.any(String), added: ['summarize'], removed: ['fetch'], changed: ['search'] },
    ]);
    const [moved] = await mcpRows(id);
    expect(moved!.changed_at).not.toBe(before!.changed_at);
    expect(moved!.n).toBe(1);
    expect(mcp.sawCredentials).toBe(false);
  });

  it('an unreachable server never fails the crawl; the record says why', async () => {
    const { id, member } = await liveToolWithMcp(`http://gone-${unique()}.localhost:1/mcp`);
    const record = await detail(id, member.key);
    expect(record.status).toBe('live');
    expect(record.mcp).toMatchObject({ status: 'unreachable', reason_kind: 'connection_error', tools: [] });
    expect(record.mcp.reason).toBe('Could not connect.');
  });

  it('the owner changes the URL (probed in the background) and clears it (the finding goes)', async () => {
    mcp.setTools([{ name: 'only', description: 'The only tool' }]);
    const { id, member } = await liveToolWithMcp(mcpAt('/mcp'));
    const sseUrl = mcpAt('/sse');
    const res = await patch(id, { mcp_url: sseUrl }, member.key);
    expect(res.status).toBe(202);
    const answer = await res.json();
    expect(answer.mcp_url).toBe(sseUrl);
    const probed = await until(
      () => detail(id, member.key),
      (record) => record.mcp.status !== 'unchecked',
    );
    expect(probed.mcp).toMatchObject({ url: sseUrl, status: 'reachable', transport: 'sse', changelog: [] });
    expect(probed.mcp.tools.map((tool: { name: string }) => tool.name)).toEqual(['only']);

    const cleared = await patch(id, { mcp_url: null }, member.key);
    expect(cleared.status).toBe(202);
    const record = await detail(id, member.key);
    expect(record).not.toHaveProperty('mcp_url');
    expect(record).not.toHaveProperty('mcp');
    expect(await mcpRows(id)).toEqual([]);
  });

  it('a paid submission keeps its mcp_url through the payment', async () => {
    const caller = await t.member('none');
    const mcpUrl = mcpAt('/mcp');
    const res = await t.request('/api/v1/submit-site', {
      method: 'POST',
      key: caller.key,
      json: { name: `Paid Mcp ${unique()}`, url: `${fixture.origin}/paid-${unique()}`, mcp_url: mcpUrl },
    });
    expect(res.status).toBe(402);
    const pending = (await res.json()) as { site_id: string; mcp_url: string };
    expect(pending.mcp_url).toBe(mcpUrl);
    const sessionId = await currentSession(t, pending.site_id);
    const paid = await sendEvent(t, 'checkout.session.completed', paidSession({ siteId: pending.site_id, sessionId }));
    expect(paid.status).toBe(200);
    const [site] = await queryRows<{ mcp_url: string | null }>(
      t.deps.db,
      sql`SELECT mcp_url FROM sites WHERE id = ${pending.site_id}::uuid`,
    );
    expect(site?.mcp_url).toBe(mcpUrl);
  });
});

describe('a malformed mcp_url changes nothing, on every surface', () => {
  const bad = [
    'ftp://acme.example/mcp',
    'https://user:secret@acme.example/mcp',
    'https://acme.example\\@evil.example/mcp',
    'not a url',
    42,
  ];

  it('REST submit and its alias: 400 in the error shape, no site, no pending record', async () => {
    const member = await t.member('member');
    for (const path of ['/api/v1/submit-site', '/api/v1/sites']) {
      for (const mcpUrl of bad) {
        const res = await t.request(path, {
          method: 'POST',
          key: member.key,
          json: { name: `Bad Mcp ${unique()}`, url: `${fixture.origin}/bad`, mcp_url: mcpUrl },
        });
        expect(res.status, `${path} ${String(mcpUrl)}`).toBe(400);
        const body = await res.json();
        expect(body).toEqual({ error: { code: expect.any(String), message: expect.stringContaining('mcp_url') } });
      }
    }
    const [count] = await queryRows<{ n: number }>(
      t.deps.db,
      sql`SELECT (SELECT count(*) FROM sites WHERE account_id = ${member.accountId}::uuid)
           + (SELECT count(*) FROM pending_submissions WHERE account_id = ${member.accountId}::uuid) AS n`,
    );
    expect(Number(count!.n)).toBe(0);
  });

  it('PATCH and MCP submit_site / edit_site refuse it and keep the stored URL', async () => {
    const mcpUrl = mcpAt('/mcp');
    const { id, member } = await liveToolWithMcp(mcpUrl);
    for (const mcpBad of bad) {
      const res = await patch(id, { mcp_url: mcpBad }, member.key);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        error: { code: expect.any(String), message: expect.stringContaining('mcp_url') },
      });
    }
    const client = await connectMcp(t, { key: member.key });
    const submitted = await callTool(client, 'submit_site', {
      name: `Bad Mcp ${unique()}`,
      url: `${fixture.origin}/bad-mcp`,
      mcp_url: 'ftp://acme.example/mcp',
    });
    expect(submitted.isError).toBe(true);
    const edited = await callTool(client, 'edit_site', { site_id: id, mcp_url: 'https://u:p@acme.example/mcp' });
    expect(edited.isError).toBe(true);
    await client.close();
    expect((await detail(id, member.key)).mcp_url).toBe(mcpUrl);
  });

  it('MCP edit_site sets a valid one', async () => {
    const { id, member } = await liveToolWithMcp(mcpAt('/mcp'));
    const next = mcpAt('/mcp');
    const client = await connectMcp(t, { key: member.key });
    const edited = await callTool(client, 'edit_site', { site_id: id, mcp_url: next });
    expect(edited.isError).toBeFalsy();
    await client.close();
    expect((await detail(id, member.key)).mcp_url).toBe(next);
  });
});
