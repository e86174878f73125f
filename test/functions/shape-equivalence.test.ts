// Every verb's output parses, exactly, with the one schema declared for it (src/submissions/record-schemas.ts,
// src/directory/tool-schemas.ts), on each surface that returns it: the REST body with the schema openapi.json names, what the CLI prints under --json,
// the MCP structuredContent with the tool's outputSchema, and both are the same JSON. "Exactly": zod
// drops keys it does not know, so a parse that equals its input proves the body has no field the schema lacks.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  pendingRecordSchema,
  queuedResponseSchema,
  siteListSchema,
  siteDetailSchema,
  siteRecordSchema,
  submissionRecordSchema,
} from '../../src/submissions/record-schemas';
import { searchPageSchema, toolDetailSchema } from '../../src/directory/tool-schemas';
import { ListEnvelope, PendingPaymentRecord, QueuedResponse, SiteDetail } from '../../functions/v1/schemas';
import { mcpTools } from '../../functions/mcp/tools';
import { createTestApp, type TestApp, uniqueName, uniqueUrl } from '../helpers/test-app';
import { callTool, connectMcp } from './mcp/mcp-client';
import { runCli } from '../../src/cli/program';
import { fakeWorld } from '../unit/cli/fake-context';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

function expectExactly(schema: z.ZodType, body: unknown, label: string): void {
  const parsed = schema.safeParse(body);
  expect(parsed.error, `${label}: ${JSON.stringify(body)}`).toBeUndefined();
  expect(parsed.data, label).toStrictEqual(body);
}

const outputSchemaOf = (name: string) => mcpTools.find((tool) => tool.name === name)!.outputSchema;

type MaybeQueued = { queue?: { estimated_at?: string } } | undefined;
const hasEstimate = (body: unknown) => (body as MaybeQueued)?.queue?.estimated_at !== undefined;
const withoutEstimate = (body: unknown) => {
  const queue = (body as MaybeQueued)?.queue;
  return queue ? { ...(body as object), queue: { ...queue, estimated_at: undefined } } : body;
};

/** The same read through REST and MCP: equal bodies, each exactly its surface's schema. */
async function readBoth(key: string, siteId: string, restSchema: z.ZodType, label: string) {
  const rest = await (await t.request(`/api/v1/sites/${siteId}`, { key })).json();
  const client = await connectMcp(t, { key });
  const mcp = (await callTool(client, 'get_site_status', { site_id: siteId })).structuredContent;
  await client.close();
  // A queue's estimated_at is "now + pace × position" at each read: equal up to it, and present in both or neither.
  expect(withoutEstimate(mcp), label).toEqual(withoutEstimate(rest));
  expect(hasEstimate(mcp), label).toBe(hasEstimate(rest));
  expectExactly(restSchema, rest, `${label} (REST)`);
  expectExactly(submissionRecordSchema, rest, `${label} (detail read)`);
  expectExactly(outputSchemaOf('get_site_status'), mcp, `${label} (MCP)`);
  return rest;
}

describe('submissions', () => {
  it('the queued body of a member submit (REST 201, MCP submit_site)', async () => {
    const m = await t.member('member');
    const rest = await (
      await t.request('/api/v1/submit-site', {
        method: 'POST',
        key: m.key,
        json: { name: uniqueName(), url: uniqueUrl() },
      })
    ).json();
    expectExactly(QueuedResponse, rest, 'REST 201');
    expectExactly(queuedResponseSchema, rest, 'REST 201 (core)');
    const client = await connectMcp(t, { key: m.key });
    const mcp = (await callTool(client, 'submit_site', { name: uniqueName(), url: uniqueUrl() })).structuredContent;
    await client.close();
    expectExactly(queuedResponseSchema, mcp, 'MCP submit_site queued');
    expectExactly(outputSchemaOf('submit_site'), mcp, 'MCP submit_site queued (outputSchema)');
  });

  it('the pending-payment record (REST 402, MCP submit_site, the detail read)', async () => {
    const m = await t.member('none');
    const rest = await (
      await t.request('/api/v1/submit-site', {
        method: 'POST',
        key: m.key,
        json: { name: uniqueName(), url: uniqueUrl(), plan: 'pro' },
      })
    ).json();
    expectExactly(PendingPaymentRecord, rest, 'REST 402');
    expectExactly(pendingRecordSchema, rest, 'REST 402 (core)');
    const client = await connectMcp(t, { key: m.key });
    const mcp = (await callTool(client, 'submit_site', { name: uniqueName(), url: uniqueUrl(), plan: 'featured' }))
      .structuredContent;
    await client.close();
    expectExactly(pendingRecordSchema, mcp, 'MCP submit_site pending');
    expectExactly(outputSchemaOf('submit_site'), mcp, 'MCP submit_site pending (outputSchema)');
    await readBoth(m.key, rest.site_id, PendingPaymentRecord, 'pending detail');
  });

  it('site records in every state: queued, live, crawl_failed, rejected and refunded', async () => {
    const m = await t.member('member');
    const submitOne = async () =>
      (
        await (
          await t.request('/api/v1/submit-site', {
            method: 'POST',
            key: m.key,
            json: { name: uniqueName(), url: uniqueUrl() },
          })
        ).json()
      ).site_id as string;
    const queued = await submitOne();
    const live = await submitOne();
    const failed = await submitOne();
    const rejected = await submitOne();
    await t.deps.db.execute(sql`UPDATE sites SET status = 'live', live_url = 'http://tooldir.test/tools/shape', slug = ${`shape-${live}`},
      published_at = now() WHERE id = ${live}`);
    await t.deps.db.execute(sql`UPDATE sites SET status = 'crawl_failed', crawl_error_kind = 'http_error', crawl_error_http_status = 503
      WHERE id = ${failed}`);
    await t.deps.db.execute(
      sql`UPDATE sites SET status = 'rejected', status_note = 'Not an AI tool' WHERE id = ${rejected}`,
    );
    expect((await readBoth(m.key, queued, SiteDetail, 'queued')).status).toBe('queued');
    expect((await readBoth(m.key, live, SiteDetail, 'live')).live_url).toBe('http://tooldir.test/tools/shape');
    expect((await readBoth(m.key, failed, SiteDetail, 'crawl_failed')).crawl_error).toEqual({
      code: 'http_error',
      message: 'the site answered HTTP 503',
    });
    expect((await readBoth(m.key, rejected, SiteDetail, 'rejected')).status).toBe('rejected');

    const payer = await t.member('none');
    const pending = await (
      await t.request('/api/v1/submit-site', {
        method: 'POST',
        key: payer.key,
        json: { name: uniqueName(), url: uniqueUrl() },
      })
    ).json();
    await t.deps.db.execute(
      sql`UPDATE pending_submissions SET state = 'refunded', state_note = 'The URL was taken meanwhile.' WHERE id = ${pending.site_id}`,
    );
    const refunded = await readBoth(payer.key, pending.site_id, SiteDetail, 'refunded');
    expect(refunded).toMatchObject({ status: 'rejected', rejection_reason: 'The URL was taken meanwhile.' });

    const list = await (await t.request('/api/v1/sites', { key: m.key })).json();
    expect(list.sites).toHaveLength(4);
    expectExactly(ListEnvelope, list, 'REST list');
    expectExactly(siteListSchema, list, 'REST list (core)');
    for (const record of list.sites) expectExactly(siteRecordSchema, record, `list item ${record.status}`);
  });
});

/** `tooldir <args> --json` in-process, its fetch answered by this app (loopback only); returns the JSON it printed. */
async function cliJson(key: string, args: string[], exitCode = 0): Promise<unknown> {
  const world = await fakeWorld(() => ({ status: 500 }), { env: { TOOLDIR_API_KEY: key } });
  const loopbackFetch = world.ctx.fetch;
  world.ctx.fetch = async (input, init) => {
    const url = new URL(input);
    if (url.hostname !== '127.0.0.1') return loopbackFetch(input, init);
    return t.app.request(`http://tooldir.test${url.pathname}${url.search}`, init);
  };
  const code = await runCli([...args, '--json'], world.ctx);
  expect(code, world.stderr.text).toBe(exitCode);
  return JSON.parse(world.stdout.text);
}

describe('the CLI (what --json prints is the REST body, so it parses with the same schemas)', () => {
  it('submit (queued and pending), status and list', async () => {
    const m = await t.member('member');
    const queued = await cliJson(m.key, ['submit', uniqueUrl(), '--name', uniqueName()]);
    expectExactly(queuedResponseSchema, queued, 'CLI submit queued');
    const status = await cliJson(m.key, ['status', (queued as { site_id: string }).site_id]);
    expectExactly(siteDetailSchema, status, 'CLI status');
    const list = await cliJson(m.key, ['list']);
    expectExactly(siteListSchema, list, 'CLI list');

    const payer = await t.member('none');
    const pending = await cliJson(payer.key, ['submit', uniqueUrl(), '--name', uniqueName()], 3);
    expectExactly(pendingRecordSchema, pending, 'CLI submit pending');
    expectExactly(
      pendingRecordSchema,
      await cliJson(payer.key, ['status', (pending as { site_id: string }).site_id]),
      'CLI status pending',
    );
  });
});

describe('directory', () => {
  it('search results and a tool detail (REST and MCP)', async () => {
    const m = await t.member('member');
    const { site_id } = await (
      await t.request('/api/v1/submit-site', {
        method: 'POST',
        key: m.key,
        json: { name: uniqueName('Shapewick'), url: uniqueUrl() },
      })
    ).json();
    const slug = `shapewick-${site_id.slice(0, 8)}`;
    await t.deps.db.execute(sql`UPDATE sites SET status = 'live', slug = ${slug}, live_url = ${`http://tooldir.test/tools/${slug}`},
      published_at = now(), metadata = ${JSON.stringify({ title: 'Shapewick', description: '  Writes shapes.  ', image: null, icon: null })}::jsonb
      WHERE id = ${site_id}`);
    const results = await (await t.request('/api/v1/tools?q=shapewick')).json();
    expect(results.tools.length).toBeGreaterThan(0);
    expectExactly(searchPageSchema, results, 'REST search');
    const detail = await (await t.request(`/api/v1/tools/${slug}`)).json();
    expectExactly(toolDetailSchema, detail, 'REST tool');
    // The HTML page reads the same record (src/directory/live-tools.ts): same description, same publication day.
    const page = await (await t.request(`/tools/${slug}`)).text();
    expect(page).toContain(`<p>${detail.description}</p>`);
    expect(page).toContain(`Listed since ${detail.published_at.slice(0, 10)}.`);

    const client = await connectMcp(t);
    const search = (await callTool(client, 'search_tools', { query: 'shapewick' })).structuredContent;
    const tool = (await callTool(client, 'get_tool', { slug })).structuredContent;
    await client.close();
    expect(search).toEqual(results);
    expect(tool).toEqual(detail);
    expectExactly(outputSchemaOf('search_tools'), search, 'MCP search_tools');
    expectExactly(outputSchemaOf('get_tool'), tool, 'MCP get_tool');
  });
});
