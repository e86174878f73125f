import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startNodeServer, type NodeServer } from '../../../functions/node';
import { seedTools } from '../../helpers/live-tools';

// The same MCP endpoint over a real socket: the Node entry on 127.0.0.1 and an ephemeral port, the SDK
// client with its default fetch. Proves the Web-standard transport works behind @hono/node-server.

let server: NodeServer;
let dataDir: string;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'tooldir-mcp-node-'));
  cpSync(inject('pgliteTemplate'), join(dataDir, 'pglite'), { recursive: true }); // already migrated: a fast start
  server = await startNodeServer({ HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  expect(new URL(server.url).hostname).toBe('127.0.0.1');
});
afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

it('serves search_tools and get_tool to the SDK client over HTTP', async () => {
  const [tool] = await seedTools(
    server.deps.db,
    [{ name: 'Socketeer', description: 'Talks over sockets.' }],
    server.url,
  );
  const client = new Client({ name: 'tooldir-node-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp/mcp`)));
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toEqual([
    'search_tools',
    'get_tool',
    'list_categories',
    'submit_site',
    'get_site_status',
    'retry_site',
    'edit_site',
    'get_site_stats',
  ]);
  const found = await client.callTool({ name: 'search_tools', arguments: { query: 'socketeer' } });
  expect(found.structuredContent).toMatchObject({
    tools: [{ slug: tool!.slug, name: 'Socketeer' }],
    next_cursor: null,
  });
  const detail = await client.callTool({ name: 'get_tool', arguments: { slug: tool!.slug } });
  expect(detail.structuredContent).toMatchObject({ site_id: tool!.id, live_url: `${server.url}/tools/${tool!.slug}` });
  const unauthorized = await client.callTool({
    name: 'submit_site',
    arguments: { name: 'Nope Tool', url: 'https://nope.example' },
  });
  expect(unauthorized.isError).toBe(true);
  await client.close();
});
