// Search finds a listing by the name of a tool of its MCP server (issue 33; docs/mcp-and-search.md "MCP tool names"):
// on REST, MCP search_tools and the website's search page alike, below every text match, only for the server the
// listing names now when its last probe reached it, and no longer once the server stops listing the tool.
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
  client = await connectMcp(t, { ip: '198.51.100.78' });
});
afterAll(async () => {
  await client.close();
  await t.close();
});

let ipCounter = 0;
const fromIp = () => ({ headers: { 'cf-connecting-ip': `203.0.113.${++ipCounter % 250}` } });
/** A word no other tool of the suite holds (letters only, so it is one word to search and to the tool-name key). */
const word = () =>
  `zq${crypto
    .randomUUID()
    .replace(/[^a-f]/g, '')
    .slice(0, 8)}`;

interface Page {
  tools: Array<{ slug: string }>;
  next_cursor: string | null;
  suggestion: unknown;
}
const rest = async (query: string, extra = ''): Promise<Page> => {
  const res = await t.request(`/api/v1/tools?q=${encodeURIComponent(query)}${extra}`, fromIp());
  expect(res.status).toBe(200);
  return (await res.json()) as Page;
};
const slugs = (page: Page) => page.tools.map((x) => x.slug);
const mcpSlugs = async (query: string) => {
  const result = await callTool(client, 'search_tools', { query });
  expect(result.isError).toBeFalsy();
  return (result.structuredContent as unknown as Page).tools.map((x) => x.slug);
};

describe('a query that names a tool of a listing’s MCP server', () => {
  it('finds the listing on REST, MCP and the website, however the name is written, never corrected', async () => {
    const w = word();
    const [served, other] = await seedTools(t.deps.db, [
      { name: 'Ticket Desk', description: 'Help desk software.' },
      { name: 'Other Desk' },
    ]);
    await giveMcpServer(t.deps.db, served!.id, 'https://mcp.ticket.example/mcp', {
      tools: [{ name: `open_${w}_ticket` }, { name: 'list_things' }],
    });
    for (const query of [`open_${w}_ticket`, `open ${w} ticket`, `open-${w}-ticket`, `Open${w.toUpperCase()}Ticket`]) {
      const page = await rest(query);
      expect(slugs(page), query).toEqual([served!.slug]);
      expect(page.suggestion).toBeNull();
    }
    expect(await mcpSlugs(`open_${w}_ticket`)).toEqual([served!.slug]);
    const html = await (await t.request(`/?q=${encodeURIComponent(`open_${w}_ticket`)}`, fromIp())).text();
    expect(html).toContain(`/tools/${served!.slug}`);
    expect(html).not.toContain(`/tools/${other!.slug}`);
    // Part of a tool's name is not its name.
    expect(slugs(await rest(`open_${w}`))).toEqual([]);
    // The category filter holds for tool-name matches too.
    expect(slugs(await rest(`open_${w}_ticket`, '&category=audio'))).toEqual([]);
  });

  it('ranks it below listings whose name or description matches, once each, page by page', async () => {
    const w = word();
    // Seeded oldest first: newest first within a tier would put the tool-name matches on top if tiers did not rank.
    const [byName, byDescription, byNameAndTool, byTool, byToolToo] = await seedTools(t.deps.db, [
      { name: `${w} Studio` },
      { name: 'Plain Studio', description: `The ${w} of studios.` },
      { name: `${w} Server` },
      { name: 'Tool Server' },
      { name: 'Another Server' },
    ]);
    await giveMcpServer(t.deps.db, byNameAndTool!.id, 'https://a.example/mcp', { tools: [{ name: w }] });
    await giveMcpServer(t.deps.db, byTool!.id, 'https://b.example/mcp', { tools: [{ name: w }] });
    await giveMcpServer(t.deps.db, byToolToo!.id, 'https://c.example/mcp', { tools: [{ name: w.toUpperCase() }] });
    const expected = [byNameAndTool!.slug, byName!.slug, byDescription!.slug, byToolToo!.slug, byTool!.slug];
    expect(slugs(await rest(w))).toEqual(expected);
    expect(await mcpSlugs(w)).toEqual(expected);
    // One row a page: the cursor walks from the text tiers into the tool names' without repeating or skipping.
    const walked: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await rest(w, `&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      walked.push(...slugs(page));
      cursor = page.next_cursor;
    } while (cursor && walked.length < 10);
    expect(walked).toEqual(expected);
    const html = await (await t.request(`/?q=${w}`, fromIp())).text();
    const at = expected.map((slug) => html.indexOf(`/tools/${slug}"`));
    expect(at.every((i) => i > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });

  it('does not match a server that is not reachable, or a probe of a URL the listing no longer names', async () => {
    const w = word();
    const [down, locked, stale, unchecked] = await seedTools(t.deps.db, [
      { name: 'Down Server' },
      { name: 'Locked Server' },
      { name: 'Stale Server' },
      { name: 'Unchecked Server' },
    ]);
    await giveMcpServer(t.deps.db, down!.id, 'https://down.example/mcp', {
      status: 'unreachable',
      tools: [{ name: w }],
    });
    await giveMcpServer(t.deps.db, locked!.id, 'https://locked.example/mcp', {
      status: 'auth_required',
      tools: [{ name: w }],
    });
    await giveMcpServer(t.deps.db, stale!.id, 'https://stale-new.example/mcp', {
      url: 'https://stale-old.example/mcp',
      tools: [{ name: w }],
    });
    await giveMcpServer(t.deps.db, unchecked!.id, 'https://unchecked.example/mcp', null);
    expect(slugs(await rest(w))).toEqual([]);
    expect(await mcpSlugs(w)).toEqual([]);
    // The stale listing is found again once the listing names the URL that was probed.
    await queryRows(
      t.deps.db,
      sql`UPDATE sites SET mcp_url = 'https://stale-old.example/mcp' WHERE id = ${stale!.id}::uuid`,
    );
    expect(slugs(await rest(w))).toEqual([stale!.slug]);
  });

  it('stops matching when a probe finds the tool gone, and the cached search page follows', async () => {
    const w = word();
    const [tool] = await seedTools(t.deps.db, [{ name: 'Shrinking Server' }]);
    await giveMcpServer(t.deps.db, tool!.id, 'https://shrink.example/mcp', { tools: [{ name: w }, { name: 'stays' }] });
    expect(slugs(await rest(w))).toEqual([tool!.slug]);
    const before = await (await t.request(`/?q=${w}`, fromIp())).text();
    expect(before).toContain(`/tools/${tool!.slug}`);
    expect(before).not.toContain('No tool matches your search.');
    await queryRows(
      t.deps.db,
      sql`UPDATE site_mcp SET tools = '[{"name":"stays","title":null,"description":null,"input_schema_bytes":2}]'::jsonb
        WHERE site_id = ${tool!.id}::uuid`,
    );
    expect(slugs(await rest(w))).toEqual([]);
    expect(await mcpSlugs(w)).toEqual([]);
    // The page is not the cached one: it finds nothing now (and offers the newest tools instead).
    expect(await (await t.request(`/?q=${w}`, fromIp())).text()).toContain('No tool matches your search.');
    // A server that stops answering is not matched either.
    expect(slugs(await rest('stays'))).toEqual([tool!.slug]);
    await queryRows(t.deps.db, sql`UPDATE site_mcp SET status = 'unreachable' WHERE site_id = ${tool!.id}::uuid`);
    expect(slugs(await rest('stays'))).toEqual([]);
  });

  it('takes hostile tool names harmlessly: very long, SQL-ish, unicode, not a string', async () => {
    const w = word();
    const long = `${w}${'x'.repeat(5000)}`;
    const sqlish = `${w}'); DROP TABLE sites; --`;
    const [a, b, c] = await seedTools(t.deps.db, [
      { name: 'Long Names' },
      { name: 'Quote Names' },
      { name: 'Uni Names' },
    ]);
    await giveMcpServer(t.deps.db, a!.id, 'https://long.example/mcp', { tools: [{ name: long }] });
    await giveMcpServer(t.deps.db, b!.id, 'https://quote.example/mcp', { tools: [{ name: sqlish }] });
    await giveMcpServer(t.deps.db, c!.id, 'https://uni.example/mcp', {
      tools: [{ name: `créer_${w}_problème` }, { name: `${w}_\u0007_\u202e_🙂` }],
    });
    // Entries without a name, or that are no object, have no key (the probe never writes them; the database copes).
    await queryRows(
      t.deps.db,
      sql`UPDATE site_mcp SET tools = tools || '[{"name": 42}, {"title": "no name"}, "bare"]'::jsonb WHERE site_id = ${c!.id}::uuid`,
    );
    // A name longer than any query can be is not matched, even by its first 200 characters.
    expect(slugs(await rest(long.slice(0, 200)))).toEqual([]);
    expect(slugs(await rest(sqlish))).toEqual([b!.slug]);
    expect(slugs(await rest(`${w} drop table sites`))).toEqual([b!.slug]);
    expect(slugs(await rest(`créer ${w} problème`))).toEqual([c!.slug]);
    expect(slugs(await rest('bare'))).not.toContain(c!.slug);
    expect(await mcpSlugs(`${w}_🙂`)).toEqual(expect.any(Array));
    const html = await t.request(`/?q=${encodeURIComponent(sqlish)}`, fromIp());
    expect(html.status).toBe(200);
    expect(await html.text()).toContain(`/tools/${b!.slug}`);
    const sites = await queryRows<{ n: string }>(t.deps.db, sql`SELECT count(*)::text AS n FROM sites`);
    expect(Number(sites[0]!.n)).toBeGreaterThan(0);
  });
});
