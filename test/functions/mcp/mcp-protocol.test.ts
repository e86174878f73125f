import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { connectMcp, MCP_URL } from './mcp-client';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const post = (body: string, headers: Record<string, string> = {}) =>
  t.app.request(MCP_URL, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body,
  });

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
});

describe('MCP handshake through the SDK client', () => {
  it('initializes and lists the six tools with input and output schemas and hints', async () => {
    const client = await connectMcp(t);
    expect(client.getServerVersion()).toMatchObject({ name: 'tooldir', version: '1.0.0' });
    expect(client.getInstructions()).toMatch(/search_tools/);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'search_tools',
      'get_tool',
      'list_categories',
      'submit_site',
      'get_site_status',
      'retry_site',
      'edit_site',
      'get_site_stats',
      'withdraw_site',
      'verify_domain',
      'claim_site',
    ]);
    for (const tool of tools) {
      expect(tool.description?.length, tool.name).toBeGreaterThan(100);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
    }
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    expect(byName.search_tools!.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
    expect(byName.get_tool!.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
    expect(byName.list_categories!.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
    expect(byName.submit_site!.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: false });
    expect(byName.retry_site!.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: false });
    expect(byName.retry_site!.inputSchema.required).toEqual(['site_id']);
    expect(byName.edit_site!.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: false });
    expect(Object.keys(byName.edit_site!.inputSchema.properties ?? {})).toEqual([
      'name',
      'description',
      'url',
      'mcp_url',
      'site_id',
    ]);
    expect(byName.edit_site!.inputSchema.required).toEqual(['site_id']);
    expect(Object.keys(byName.submit_site!.inputSchema.properties ?? {})).toEqual([
      'name',
      'url',
      'email',
      'plan',
      'mcp_url',
      'categories',
      'idempotency_key',
    ]);
    expect(byName.submit_site!.inputSchema.required).toEqual(['name', 'url']);
    expect(byName.search_tools!.inputSchema.properties).toMatchObject({
      query: { type: 'string', maxLength: 200 },
      limit: { maximum: 50 },
      category: { type: 'string' },
    });
    expect(byName.submit_site!.description).toMatch(/checkout_url/);
    await client.close();
  });
});

describe('MCP endpoint at the HTTP level', () => {
  it('answers a JSON-RPC parse error (400, never 5xx) for malformed JSON and for non-JSON-RPC JSON', async () => {
    for (const body of ['{not json', '{"hello":"world"}', '42', '{"jsonrpc":"2.0","id":1}']) {
      const res = await post(body);
      expect(res.status, body).toBe(400);
      expect(await res.json()).toMatchObject({
        jsonrpc: '2.0',
        error: { code: expect.any(Number), message: expect.any(String) },
        id: null,
      });
    }
  });

  it('answers an unknown method with a JSON-RPC method-not-found error', async () => {
    const res = await post(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'no/such/method' }), {
      'mcp-protocol-version': '2025-06-18',
    });
    expect(res.status).toBeLessThan(500);
    expect(await res.json()).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32601 } });
  });

  it('answers tools/call with non-object arguments as invalid params (-32602), never an internal error', async () => {
    for (const args of ['"text"', '[1]', '3', 'null']) {
      const res = await post(
        `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"search_tools","arguments":${args}}}`,
        {
          'mcp-protocol-version': '2025-06-18',
        },
      );
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        jsonrpc: '2.0',
        id: 9,
        error: {
          code: -32602,
          message: expect.stringMatching(/arguments must be a JSON object/),
          data: {
            error: {
              code: 'invalid_request',
              message: 'arguments must be a JSON object (tools/call params.arguments).',
            },
          },
        },
      });
    }
  });

  it('answers GET and DELETE with a 405 JSON-RPC error (stateless server), and other methods too', async () => {
    for (const method of ['GET', 'DELETE', 'PUT']) {
      const res = await t.app.request(MCP_URL, { method, headers: { accept: 'text/event-stream' } });
      expect(res.status, method).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(await res.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 }, id: null });
    }
  });

  it('serves any Origin (browser-based clients, CORS without credentials) and refuses a request addressed to another Host', async () => {
    const foreign = await post(initialize, { origin: 'https://elsewhere.example' });
    expect(foreign.status).toBe(200);
    expect(foreign.headers.get('access-control-allow-origin')).toBe('*');
    expect(foreign.headers.get('access-control-allow-credentials')).toBeNull();
    expect((await post(initialize, { origin: 'null' })).status).toBe(200);
    expect((await post(initialize)).status).toBe(200);
    const rebound = await t.app.request('http://evil.example/api/mcp/mcp', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        origin: 'http://tooldir.test',
      },
      body: initialize,
    });
    expect(rebound.status).toBe(403);
    expect(rebound.headers.get('access-control-allow-origin')).toBeNull();
    expect(await rebound.json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32000, message: 'Forbidden: Host evil.example is not this server.' },
      id: null,
    });
  });

  it('promises no tools/list_changed notification it never sends', async () => {
    const res = await post(initialize);
    const { result } = (await res.json()) as { result: { capabilities: Record<string, unknown> } };
    expect(result.capabilities).toEqual({ tools: { listChanged: false } });
    const client = await connectMcp(t);
    expect(client.getServerCapabilities()?.tools?.listChanged).not.toBe(true);
    await client.close();
  });

  it('sends each error message once, without the SDK\'s "MCP error <code>:" in it (clients add their own)', async () => {
    const res = await post(
      JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } }),
      {
        'mcp-protocol-version': '2025-06-18',
      },
    );
    const body = (await res.json()) as { error: { code: number; message: string } };
    expect(body.error).toMatchObject({
      code: -32602,
      message: 'Unknown tool: no_such_tool. tools/list names the tools.',
    });
    const client = await connectMcp(t);
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(
      /^MCP error -32602: Unknown tool: no_such_tool\. tools\/list names the tools\.$/,
    );
    const invalid = await post(JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/list', params: { cursor: 5 } }), {
      'mcp-protocol-version': '2025-06-18',
    });
    expect(((await invalid.json()) as { error: { message: string } }).error.message).not.toMatch(/MCP error/);
    await client.close();
  });

  it('needs Accept for both JSON and SSE and a JSON content type, answering JSON-RPC errors', async () => {
    const noAccept = await t.app.request(MCP_URL, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: initialize,
    });
    expect(noAccept.status).toBe(406);
    const textBody = await post(initialize, { 'content-type': 'text/plain' });
    expect(textBody.status).toBe(415);
    expect(await textBody.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
  });

  it('refuses a body over 64 KiB with a JSON-RPC error', async () => {
    const res = await post(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(70_000) } }),
    );
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
  });

  it('initializes statelessly: a JSON answer and no session id', async () => {
    const res = await post(initialize);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    expect(res.headers.get('x-request-id')).toMatch(/.{8,}/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.json()).toMatchObject({
      jsonrpc: '2.0',
      id: 1,
      result: { serverInfo: { name: 'tooldir' }, capabilities: { tools: {} } },
    });
  });
});
