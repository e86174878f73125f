// A listing's MCP server on the read side (issue 33): the tool record's `mcp` on REST and MCP get_tool, the tool
// page's section and its snippets, search's has_mcp filter, and the page cache moving when a probe changes what it shows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createTestApp, type TestApp } from '../../../helpers/test-app';
import { seedTools } from '../../../helpers/live-tools';
import { giveMcpServer } from '../../../helpers/mcp-listings';
import { queryRows } from '../../../../src/db/client';
import { callTool, connectMcp } from '../../mcp/mcp-client';

let t: TestApp;
let client: Client;
beforeAll(async () => {
  t = await createTestApp();
  client = await connectMcp(t, { ip: '198.51.100.77' });
});
afterAll(async () => {
  await client.close();
  await t.close();
});

let ipCounter = 0;
const fromIp = () => ({ headers: { 'cf-connecting-ip': `203.0.113.${++ipCounter % 250}` } });
const version = async () =>
  Number((await queryRows<{ v: string }>(t.deps.db, sql`SELECT version AS v FROM listing_version`))[0]?.v);

describe('the tool record', () => {
  it('is mcp: null for a listing without a server, and lists the tools of a reachable one', async () => {
    const [plain, served] = await seedTools(t.deps.db, [{ name: 'Plain Tool' }, { name: 'Served Tool' }]);
    expect((await (await t.request(`/api/v1/tools/${plain!.slug}`, fromIp())).json()).mcp).toBeNull();
    await giveMcpServer(t.deps.db, served!.id, 'https://mcp.served.example/mcp', {
      tools: [
        { name: 'create_issue', title: 'Create issue', description: 'Opens an issue.', input_schema_bytes: 900 },
        { name: 'list_issues' },
      ],
      at: new Date('2026-11-20T10:00:00Z'),
    });
    const record = await (await t.request(`/api/v1/tools/${served!.slug}`, fromIp())).json();
    expect(record.mcp).toEqual({
      url: 'https://mcp.served.example/mcp',
      status: 'reachable',
      transport: 'streamable_http',
      tools: [
        { name: 'create_issue', title: 'Create issue', description: 'Opens an issue.' },
        { name: 'list_issues', title: null, description: null },
      ],
      checked_at: '2026-11-20T10:00:00.000Z',
      tools_seen_at: '2026-11-20T10:00:00.000Z',
    });
    // MCP get_tool says the same, within its declared output schema (the SDK client validates it).
    const result = await callTool(client, 'get_tool', { slug: served!.slug });
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as { mcp: unknown }).mcp).toEqual(record.mcp);
  });

  it('shows a probe of an older URL as not checked, and no tools unless reachable', async () => {
    const [moved, locked] = await seedTools(t.deps.db, [{ name: 'Moved Server' }, { name: 'Locked Server' }]);
    await giveMcpServer(t.deps.db, moved!.id, 'https://new.example/mcp', {
      url: 'https://old.example/mcp',
      tools: [{ name: 'old_tool' }],
    });
    const m = (await (await t.request(`/api/v1/tools/${moved!.slug}`, fromIp())).json()).mcp;
    expect(m).toMatchObject({ url: 'https://new.example/mcp', status: 'unchecked', transport: null, tools: [] });
    await giveMcpServer(t.deps.db, locked!.id, 'https://locked.example/mcp', {
      status: 'auth_required',
      tools: [{ name: 'secret_tool' }],
    });
    const l = (await (await t.request(`/api/v1/tools/${locked!.slug}`, fromIp())).json()).mcp;
    expect(l).toMatchObject({ status: 'auth_required', tools: [] });
  });
});

describe('the tool page', () => {
  it('lists the tools with when they were last seen, and escapes the snippets', async () => {
    const [tool] = await seedTools(t.deps.db, [{ name: 'Page Server' }]);
    const hostile = `https://mcp.page.example/mcp?a=1&b='x'</pre><script>alert(1)</script>`;
    await giveMcpServer(t.deps.db, tool!.id, hostile, {
      transport: 'sse',
      tools: [{ name: 'make_<b>thing</b>', description: 'Does <i>things</i>.' }],
      at: new Date('2026-11-20T10:00:00Z'),
    });
    const html = await (await t.request(`/tools/${tool!.slug}`, fromIp())).text();
    expect(html).toContain('<h2 id="mcp-heading">MCP server</h2>');
    expect(html).toContain('<code>make_&lt;b&gt;thing&lt;/b&gt;</code>');
    expect(html).toContain('Does &lt;i&gt;things&lt;/i&gt;.');
    expect(html).toContain('Last seen <time datetime="2026-11-20T10:00:00.000Z">2026-11-20 10:00 UTC</time>');
    expect(html).not.toContain('<script>alert(1)');
    // Claude Code over SSE, the URL one single-quoted shell word.
    expect(html).toContain(
      `claude mcp add --transport sse ${tool!.slug} &#39;https://mcp.page.example/mcp?a=1&amp;b=&#39;\\&#39;&#39;x&#39;\\&#39;&#39;&lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt;&#39;`,
    );
    // VS Code's JSON names the transport; the URL is one JSON string.
    expect(html).toContain('&quot;type&quot;: &quot;sse&quot;');
  });

  it('says the status in words when the server is not reachable', async () => {
    const [tool] = await seedTools(t.deps.db, [{ name: 'Signin Server' }]);
    await giveMcpServer(t.deps.db, tool!.id, 'https://signin.example/mcp', { status: 'auth_required' });
    const html = await (await t.request(`/tools/${tool!.slug}`, fromIp())).text();
    expect(html).toContain('This server asks for sign-in.');
    expect(html).toContain('claude mcp add --transport http');
  });

  it('is never served from the cache after a probe changes what it shows', async () => {
    const [tool] = await seedTools(t.deps.db, [{ name: 'Cached Server' }]);
    await giveMcpServer(t.deps.db, tool!.id, 'https://cached.example/mcp', { tools: [{ name: 'first_tool' }] });
    expect(await (await t.request(`/tools/${tool!.slug}`, fromIp())).text()).toContain('first_tool');
    const before = await version();
    await giveMcpServer(t.deps.db, tool!.id, 'https://cached.example/mcp', { tools: [{ name: 'second_tool' }] });
    expect(await version()).toBeGreaterThan(before);
    const html = await (await t.request(`/tools/${tool!.slug}`, fromIp())).text();
    expect(html).toContain('second_tool');
    expect(html).not.toContain('first_tool');
    // A probe that records only when it ran changes nothing the pages show.
    const quiet = await version();
    await queryRows(t.deps.db, sql`UPDATE site_mcp SET checked_at = now() WHERE site_id = ${tool!.id}::uuid`);
    expect(await version()).toBe(quiet);
  });
});

describe('has_mcp', () => {
  it('keeps only listings whose server answered, on REST, MCP and the website', async () => {
    const word = `zorbling${crypto.randomUUID().slice(0, 6)}`;
    const [reachable, unreachable, none, oldUrl] = await seedTools(t.deps.db, [
      { name: `${word} Reach` },
      { name: `${word} Down` },
      { name: `${word} None` },
      { name: `${word} Stale` },
    ]);
    await giveMcpServer(t.deps.db, reachable!.id, 'https://reach.example/mcp', { tools: [{ name: 'a' }] });
    await giveMcpServer(t.deps.db, unreachable!.id, 'https://down.example/mcp', { status: 'unreachable' });
    await giveMcpServer(t.deps.db, oldUrl!.id, 'https://stale-new.example/mcp', {
      url: 'https://stale-old.example/mcp',
    });
    const all = await (await t.request(`/api/v1/tools?q=${word}`, fromIp())).json();
    expect(all.tools).toHaveLength(4);
    const only = await (await t.request(`/api/v1/tools?q=${word}&has_mcp=true`, fromIp())).json();
    expect(only.tools.map((x: { slug: string }) => x.slug)).toEqual([reachable!.slug]);
    expect(none).toBeDefined();
    const mcp = await callTool(client, 'search_tools', { query: word, has_mcp: true });
    expect((mcp.structuredContent as { tools: Array<{ slug: string }> }).tools.map((x) => x.slug)).toEqual([
      reachable!.slug,
    ]);
    const page = await (await t.request(`/?q=${word}&has_mcp=true`, fromIp())).text();
    expect(page).toContain(`/tools/${reachable!.slug}`);
    expect(page).not.toContain(`/tools/${unreachable!.slug}`);
    expect(page).toContain('Show all tools');
    // Not the unfiltered page's cache entry.
    expect(await (await t.request(`/?q=${word}`, fromIp())).text()).toContain(`/tools/${unreachable!.slug}`);
    const bad = await t.request(`/api/v1/tools?q=${word}&has_mcp=yes`, fromIp());
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.code).toBe('invalid_request');
  });
});
