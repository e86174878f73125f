import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { TestApp } from '../../helpers/test-app';

export const MCP_URL = 'http://tooldir.test/api/mcp/mcp';

/**
 * The SDK's own client over the SDK's own streamable HTTP transport; its fetch goes to app.request, so
 * every byte passes through the real app without a socket. Tools are listed once, which also makes the
 * client validate every structuredContent against the declared outputSchema.
 */
export async function connectMcp(t: TestApp, options: { key?: string; ip?: string } = {}): Promise<Client> {
  const headers: Record<string, string> = { 'cf-connecting-ip': options.ip ?? '192.0.2.1' };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  const transport = new StreamableHTTPClientTransport(new URL(MCP_URL), {
    requestInit: { headers },
    fetch: (input, init) => Promise.resolve(t.app.request(String(input instanceof Request ? input.url : input), init)),
  });
  const client = new Client({ name: 'tooldir-test', version: '1.0.0' });
  await client.connect(transport);
  await client.listTools();
  return client;
}

export async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** The JSON text of a result: the same JSON as structuredContent on success, the REST error body on error. */
export function resultJson(result: CallToolResult): unknown {
  const first = result.content[0];
  if (first?.type !== 'text') throw new Error('expected a text content item');
  return JSON.parse(first.text);
}
