import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { createCaller } from '../../../functions/mcp/caller';
import { createMcpServer } from '../../../functions/mcp/server';
import type { ToolDescriptor } from '../../../functions/mcp/tools';
import { ServiceError } from '../../../src/errors';
import { createLogger } from '../../../src/log';

// The server factory with stand-in tools, over the SDK's in-memory transport: how any tool failure reaches an agent.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const failing = (error: unknown): ToolDescriptor => ({
  name: 'fails',
  title: 'Fails',
  description: 'Always fails.',
  auth: 'none',
  scope: 'tools:read',
  readOnly: true,
  inputSchema: z.object({}),
  outputSchema: z.object({ ok: z.boolean() }),
  run: () => Promise.reject(error),
});

async function call(tool: ToolDescriptor, logLines: string[] = []) {
  const deps = { ...t.deps, log: createLogger('error', (line) => logLines.push(line)) };
  const caller = createCaller({
    deps,
    requestId: 'req-test-1234',
    clientIp: '127.0.0.1',
    url: 'http://tooldir.test/api/mcp/mcp',
  });
  const server = createMcpServer(caller, [tool]);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'unit', version: '0' });
  await client.connect(clientSide);
  const result = await client.callTool({ name: tool.name, arguments: {} });
  await client.close();
  await server.close();
  return result;
}

describe('createMcpServer', () => {
  it('renders a ServiceError as the REST error body', async () => {
    const result = await call(failing(new ServiceError('not_found', 'Nothing here.')));
    expect(result).toEqual({
      content: [{ type: 'text', text: '{"error":{"code":"not_found","message":"Nothing here."}}' }],
      isError: true,
    });
  });

  it('never shows an unexpected exception message; it logs it instead', async () => {
    const logLines: string[] = [];
    const result = await call(failing(new Error('connection string postgres://secret@db')), logLines);
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).not.toMatch(/secret|postgres/);
    expect(JSON.stringify(result.content)).toMatch(/internal_error/);
    expect(logLines.join('\n')).toMatch(/mcp tool failed.*req-test-1234/);
  });

  it('answers a body outside the declared outputSchema as internal_error in the error shape, and logs it', async () => {
    const logLines: string[] = [];
    const wrong: ToolDescriptor = { ...failing(null), name: 'wrong', run: () => Promise.resolve({ ok: 'yes' }) };
    const result = await call(wrong, logLines);
    expect(result).toEqual({
      content: [
        {
          type: 'text',
          text: '{"error":{"code":"internal_error","message":"Something went wrong on our side. Please retry later."}}',
        },
      ],
      isError: true,
    });
    expect(logLines.join('\n')).toMatch(/mcp tool failed.*outside its outputSchema/);
  });

  it('returns structuredContent and the same JSON as text on success', async () => {
    const ok: ToolDescriptor = { ...failing(null), name: 'ok', run: () => Promise.resolve({ ok: true }) };
    expect(await call(ok)).toEqual({
      content: [{ type: 'text', text: '{"ok":true}' }],
      structuredContent: { ok: true },
    });
  });
});
