// Every input-schema failure of every MCP tool answers in the service's error shape, the same body REST gives
// a 400: a tool error (isError) whose only content is `{"error":{"code":"invalid_request","message"}}`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createTestApp, uniqueName, uniqueUrl, type TestApp } from '../../helpers/test-app';
import { callTool, connectMcp } from './mcp-client';

let t: TestApp;
let key: string;
let client: Client;
beforeAll(async () => {
  t = await createTestApp();
  key = (await t.member('member')).key;
  client = await connectMcp(t, { key });
});
afterAll(async () => {
  await client.close();
  await t.close();
});

/** The result must be exactly the REST error body as text, and nothing else (no SDK wording around it). */
function expectErrorBody(result: CallToolResult, message: string, what: string) {
  const body = { error: { code: 'invalid_request', message } };
  expect(result, what).toEqual({ content: [{ type: 'text', text: JSON.stringify(body) }], isError: true });
}

describe('submit_site input errors', () => {
  const longName = 'N'.repeat(101);
  const cases: Array<[string, Record<string, unknown>]> = [
    ['name of the wrong type', { name: 42, url: uniqueUrl('mcp-in') }],
    ['name null', { name: null, url: uniqueUrl('mcp-in') }],
    ['name missing', { url: uniqueUrl('mcp-in') }],
    ['url missing', { name: uniqueName('Mcp In') }],
    ['everything missing', {}],
    ['name too short', { name: 'x', url: uniqueUrl('mcp-in') }],
    ['name too long', { name: longName, url: uniqueUrl('mcp-in') }],
    ['url of the wrong type', { name: uniqueName('Mcp In'), url: ['https://a.example'] }],
    ['url not http', { name: uniqueName('Mcp In'), url: 'ftp://example.com' }],
    ['url too long', { name: uniqueName('Mcp In'), url: `https://a.example/${'p'.repeat(2100)}` }],
    ['bad e-mail', { name: uniqueName('Mcp In'), url: uniqueUrl('mcp-in'), email: 'nope' }],
    ['e-mail of the wrong type', { name: uniqueName('Mcp In'), url: uniqueUrl('mcp-in'), email: { a: 1 } }],
    ['bad plan', { name: uniqueName('Mcp In'), url: uniqueUrl('mcp-in'), plan: 'gold' }],
    ['plan of the wrong type', { name: uniqueName('Mcp In'), url: uniqueUrl('mcp-in'), plan: true }],
  ];

  it.each(cases)('%s: the same error body as REST 400, as a tool error', async (what, args) => {
    const rest = await t.request('/api/v1/submit-site', { method: 'POST', key, json: args });
    expect(rest.status, what).toBe(400);
    const restBody = (await rest.json()) as { error: { code: string; message: string } };
    expect(restBody.error.code).toBe('invalid_request');
    const result = await callTool(client, 'submit_site', args);
    expectErrorBody(result, restBody.error.message, what);
  });

  it('names the field in the message', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ name: 42, url: uniqueUrl('mcp-in') }, /^name /],
      [{ name: uniqueName('Mcp In') }, /^url /],
      [
        { name: uniqueName('Mcp In'), url: uniqueUrl('mcp-in'), plan: 'gold' },
        /^plan must be one of basic, featured, sponsored, pro$/,
      ],
      [{ name: uniqueName('Mcp In'), url: uniqueUrl('mcp-in'), email: 'x'.repeat(250) + '@a.example' }, /^email /],
    ];
    for (const [args, pattern] of cases) {
      const text = (await callTool(client, 'submit_site', args)).content[0];
      expect(text?.type === 'text' && (JSON.parse(text.text) as { error: { message: string } }).error.message).toMatch(
        pattern,
      );
    }
  });
});

describe('input errors of the read tools', () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['search_tools', { limit: 51 }, 'limit must be an integer from 1 to 50'],
    ['search_tools', { limit: 0 }, 'limit must be an integer from 1 to 50'],
    ['search_tools', { limit: 2.5 }, 'limit must be an integer from 1 to 50'],
    ['search_tools', { limit: '10' }, 'limit must be an integer from 1 to 50'],
    ['search_tools', { query: 5 }, 'query must be a string'],
    ['search_tools', { query: 'q'.repeat(201) }, 'query must be at most 200 characters'],
    ['search_tools', { cursor: null }, 'cursor must be a string'],
    ['search_tools', { cursor: 'c'.repeat(401) }, 'cursor is malformed'],
    ['get_tool', { slug: 7 }, 'slug must be a string'],
    ['get_tool', { slug: 's'.repeat(201) }, 'slug must be at most 200 characters'],
    ['get_tool', { site_id: false }, 'site_id must be a string'],
    ['get_tool', { site_id: 'x'.repeat(101) }, 'site_id must be a UUID'],
    ['get_site_status', { site_id: ['a'] }, 'site_id must be a string'],
    ['get_site_status', { url: 3 }, 'url must be a string'],
    ['get_site_status', { url: `https://a.example/${'p'.repeat(2048)}` }, 'url must be at most 2048 characters'],
  ];

  it.each(cases)('%s %j: invalid_request naming the field, as a tool error', async (tool, args, message) => {
    expectErrorBody(await callTool(client, tool, args), message, `${tool} ${JSON.stringify(args)}`);
  });

  it('the REST search gives the same message for the same limit', async () => {
    const rest = await t.request('/api/v1/tools?limit=51');
    expect(rest.status).toBe(400);
    const result = await callTool(client, 'search_tools', { limit: 51 });
    expect(result.content).toEqual([{ type: 'text', text: JSON.stringify(await rest.json()) }]);
  });

  it('ignores unknown argument names (the schemas are not strict), like REST bodies', async () => {
    const result = await callTool(client, 'search_tools', { query: 'nothing-matches-this', bogus: 1 });
    expect(result.isError).toBeFalsy();
  });
});

describe('what input validation leaves alone', () => {
  it('still lists every tool with its full input schema', async () => {
    const { tools } = await client.listTools();
    const submit = tools.find((tool) => tool.name === 'submit_site');
    expect(submit?.inputSchema).toMatchObject({
      type: 'object',
      required: ['name', 'url'],
      properties: { plan: { enum: ['basic', 'featured', 'sponsored', 'pro'] } },
    });
  });

  it('answers an unknown tool with a JSON-RPC invalid-params error carrying the error body, as the MCP spec says', async () => {
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toMatchObject({
      code: -32602,
      data: { error: { code: 'not_found', message: 'Unknown tool: no_such_tool. tools/list names the tools.' } },
    });
  });

  it('passes valid input through to the tool (a normal result)', async () => {
    const result = await callTool(client, 'submit_site', {
      name: uniqueName('Mcp In Ok'),
      url: uniqueUrl('mcp-in-ok'),
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ status: 'queued', site_id: expect.any(String) });
  });
});
