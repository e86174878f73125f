import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { seedTools } from '../../helpers/live-tools';
import { callTool, connectMcp, resultJson } from './mcp-client';

let t: TestApp;
let client: Client;
beforeAll(async () => {
  t = await createTestApp();
  client = await connectMcp(t, { ip: '198.51.100.1' });
});
afterAll(async () => {
  await client.close();
  await t.close();
});

describe('search_tools (no key)', () => {
  it('returns ranked results as structuredContent and the same JSON as text', async () => {
    const [named, described] = await seedTools(t.deps.db, [
      { name: 'Mcpfinder Pro', description: 'Finds things.', categories: ['research'] },
      { name: 'Lookup Buddy', description: 'Like mcpfinder, but older.', isFeature: true },
      { name: 'Mcpfinder Beta', status: 'pending_review' },
    ]);
    const result = await callTool(client, 'search_tools', { query: 'mcpfinder' });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({
      tools: [
        {
          slug: named!.slug,
          name: 'Mcpfinder Pro',
          url: named!.url,
          description: 'Finds things.',
          is_feature: false,
          is_sponsor: false,
          live_url: `http://tooldir.test/tools/${named!.slug}`,
          categories: [{ slug: 'research', name: 'Research' }],
        },
        {
          slug: described!.slug,
          name: 'Lookup Buddy',
          url: described!.url,
          description: 'Like mcpfinder, but older.',
          is_feature: true,
          is_sponsor: false,
          live_url: `http://tooldir.test/tools/${described!.slug}`,
          categories: [],
        },
      ],
      next_cursor: null,
      // Found as typed: nothing corrected, nothing offered instead.
      suggestion: null,
      closest_categories: [],
      newest_tools: [],
    });
    expect(resultJson(result)).toEqual(result.structuredContent);
  });

  it('answers a query holding half a surrogate pair (JSON-RPC can carry one) as its other words', async () => {
    const [tool] = await seedTools(t.deps.db, [{ name: 'Surrogatefinder', description: 'Finds halves.' }]);
    for (const query of ['surrogatefinder \ud800', '\udc00surrogatefinder']) {
      const result = await callTool(client, 'search_tools', { query });
      expect(result.isError).toBeFalsy();
      const page = result.structuredContent as { tools: Array<{ slug: string }> };
      expect(page.tools.map((found) => found.slug)).toEqual([tool!.slug]);
    }
  });

  it('answers the same as the REST search', async () => {
    await seedTools(t.deps.db, [{ name: 'Chatgpt Helperbot', description: 'Helps.' }]);
    const viaMcp = await callTool(client, 'search_tools', { query: 'chatgtp helperbot', limit: 5 });
    const viaRest = await (
      await t.request('/api/v1/tools?q=chatgtp%20helperbot&limit=5', {
        headers: { 'cf-connecting-ip': '198.51.100.9' },
      })
    ).json();
    expect(viaMcp.structuredContent).toEqual(viaRest);
    expect((viaRest as { tools: { name: string }[] }).tools[0]!.name).toBe('Chatgpt Helperbot');
  });

  it('pages with cursor', async () => {
    await seedTools(
      t.deps.db,
      Array.from({ length: 3 }, (_, i) => ({ name: `Mcppager ${i}` })),
    );
    const first = await callTool(client, 'search_tools', { query: 'mcppager', limit: 2 });
    const page1 = first.structuredContent as { tools: { slug: string }[]; next_cursor: string };
    expect(page1.tools).toHaveLength(2);
    const second = await callTool(client, 'search_tools', { query: 'mcppager', limit: 2, cursor: page1.next_cursor });
    const page2 = second.structuredContent as { tools: { slug: string }[]; next_cursor: string | null };
    expect(page2.tools.some((r) => page1.tools.some((p) => p.slug === r.slug))).toBe(false);
  });

  it('reports invalid input as a tool error that names the field', async () => {
    const tooMany = await callTool(client, 'search_tools', { query: 'x', limit: 51 });
    expect(tooMany.isError).toBe(true);
    expect(JSON.stringify(tooMany.content)).toMatch(/limit must be an integer from 1 to 50/);
    const badCursor = await callTool(client, 'search_tools', { query: 'x', cursor: 'garbage!' });
    expect(badCursor.isError).toBe(true);
    expect(resultJson(badCursor)).toEqual({
      error: { code: 'invalid_request', message: expect.stringMatching(/^cursor is malformed/) },
    });
  });
});

describe('get_tool (no key)', () => {
  it('returns a live tool by slug and by site_id, with the declared fields', async () => {
    const [tool] = await seedTools(t.deps.db, [
      {
        name: 'Getme Tool',
        description: 'All of it.',
        image: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.webp',
        icon: 'https://img.example/hot-linked.ico',
        categories: ['data', 'chat'],
      },
    ]);
    const bySlug = await callTool(client, 'get_tool', { slug: tool!.slug });
    expect(bySlug.isError).toBeFalsy();
    expect(bySlug.structuredContent).toEqual({
      site_id: tool!.id,
      slug: tool!.slug,
      name: 'Getme Tool',
      url: tool!.url,
      description: 'All of it.',
      image: 'http://tooldir.test/media/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.webp', // our own copy (docs/media.md)
      icon: null, // a remote URL from before own media is never passed on
      is_feature: false,
      is_sponsor: false,
      live_url: `http://tooldir.test/tools/${tool!.slug}`,
      published_at: expect.any(String),
      categories: [
        { slug: 'chat', name: 'Chat' },
        { slug: 'data', name: 'Data' },
      ],
      // Never re-checked yet (docs/health.md): the state says so rather than claiming the site answers.
      health: {
        state: 'unchecked',
        reason: 'not checked yet',
        last_checked_at: null,
        last_ok_at: null,
        failing_since: null,
        moved_to: null,
      },
      // No MCP server named (test/functions/v1/tools/tool-mcp.test.ts has listings with one).
      mcp: null,
    });
    expect(resultJson(bySlug)).toEqual(bySlug.structuredContent);
    const byId = await callTool(client, 'get_tool', { site_id: tool!.id });
    expect(byId.structuredContent).toEqual(bySlug.structuredContent);
  });

  it('is a not_found tool error for a tool that is not live, and asks for exactly one of slug / site_id', async () => {
    const [draft] = await seedTools(t.deps.db, [{ name: 'Getme Draft', status: 'queued' }]);
    for (const args of [{ slug: draft!.slug }, { site_id: draft!.id }, { slug: 'no-such-slug' }]) {
      const result = await callTool(client, 'get_tool', args);
      expect(result.isError).toBe(true);
      expect(resultJson(result)).toMatchObject({ error: { code: 'not_found' } });
    }
    for (const args of [{}, { slug: 'a', site_id: draft!.id }]) {
      const result = await callTool(client, 'get_tool', args);
      expect(result.isError).toBe(true);
      expect(resultJson(result)).toEqual({
        error: { code: 'invalid_request', message: 'slug or site_id: pass exactly one of them.' },
      });
    }
  });
});

describe('anonymous rate limit', () => {
  // Distinct REST searches: one the page cache already holds is answered without counting (docs/pages.md
  // "Caching and rate limits"), and MCP tool calls never go through that cache.
  let asked = 0;
  const restSearch = (ip: string) =>
    t.request(`/api/v1/tools?limit=1&q=bucket+${++asked}`, { headers: { 'cf-connecting-ip': ip } });

  it('shares the per-IP public bucket with the REST directory endpoints', async () => {
    const ip = '198.51.100.77';
    for (let i = 0; i < 60; i++) expect((await restSearch(ip)).status).toBe(200);
    const limitedClient = await connectMcp(t, { ip });
    const result = await callTool(limitedClient, 'search_tools', { query: 'anything' });
    expect(result.isError).toBe(true);
    expect(resultJson(result)).toEqual({
      error: {
        code: 'rate_limited',
        message: expect.stringMatching(/Retry in \d+ s/),
        retry_after_seconds: expect.any(Number),
      },
    });
    const other = await callTool(client, 'search_tools', { query: 'anything' });
    expect(other.isError).toBeFalsy();
    await limitedClient.close();
  });

  it('counts searches with a key against the same per-IP public bucket, not against the account', async () => {
    const ip = '198.51.100.78';
    const m = await t.member('member');
    const keyed = await connectMcp(t, { key: m.key, ip });
    for (let i = 0; i < 30; i++)
      expect((await callTool(keyed, 'search_tools', { query: 'anything' })).isError).toBeFalsy();
    for (let i = 0; i < 29; i++) expect((await restSearch(ip)).status).toBe(200);
    expect((await callTool(keyed, 'get_tool', { slug: 'no-such-tool' })).isError).toBe(true); // not_found: the 60th
    expect(resultJson(await callTool(keyed, 'search_tools', { query: 'anything' }))).toMatchObject({
      error: { code: 'rate_limited' },
    });
    expect((await t.request('/?q=anything+past+the+limit', { headers: { 'cf-connecting-ip': ip } })).status).toBe(429);
    // The account's own read bucket was not touched by the searches.
    const reads = await t.request('/api/v1/sites?limit=1', { key: m.key });
    expect(reads.headers.get('ratelimit-remaining')).toBe('59');
    await keyed.close();
  });
});
