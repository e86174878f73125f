// Raw JSON-RPC `tools/call` through app.request for the MCP fuzz suite: one POST per generated case (a full
// SDK client per case would cost a handshake each), and a classifier that fails on anything but a 2xx/4xx
// answer carrying a well-formed JSON-RPC result or error.
import type { TestApp } from '../../helpers/test-app';
import { MCP_URL } from '../mcp/mcp-client';
import { errorStatus } from '../../../src/errors';

/** What one call came to: a JSON-RPC error, a tool error (isError, with its REST error code), or a result. */
export type McpOutcome = { kind: 'rpc_error'; code: number } | { kind: 'tool_error'; code: string } | { kind: 'ok' };

let nextId = 1;

/** Posts `tools/call` with `args` as the arguments (any JSON, on purpose) and checks the answer's shape. */
export async function callToolRaw(t: TestApp, name: string, args: unknown, key?: string): Promise<McpOutcome> {
  const id = nextId++;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-06-18',
    'cf-connecting-ip': '192.0.2.7',
  };
  if (key !== undefined) headers.authorization = `Bearer ${key}`;
  const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
  const res = await t.app.request(MCP_URL, { method: 'POST', headers, body });
  const text = await res.text();
  const what = `${name}(${body.slice(0, 300)}) answered ${res.status}: ${text.slice(0, 500)}`;
  if (res.status >= 500) throw new Error(what);
  let answer: {
    jsonrpc?: unknown;
    id?: unknown;
    result?: unknown;
    error?: { code?: unknown; message?: unknown; data?: unknown };
  };
  try {
    answer = JSON.parse(text) as typeof answer;
  } catch {
    throw new Error(`not JSON: ${what}`);
  }
  if (answer.jsonrpc !== '2.0') throw new Error(`not JSON-RPC 2.0: ${what}`);
  if (answer.error !== undefined) {
    if (typeof answer.error.code !== 'number' || typeof answer.error.message !== 'string')
      throw new Error(`malformed error: ${what}`);
    if (answer.id !== id && answer.id !== null) throw new Error(`wrong id: ${what}`);
    // Invalid params carry the service's error body in data, like a tool error's text.
    if (
      answer.error.code === -32602 &&
      parseErrorCode(JSON.stringify(answer.error.data ?? null)) !== 'invalid_request'
    ) {
      throw new Error(`-32602 without the error body in data: ${what}`);
    }
    return { kind: 'rpc_error', code: answer.error.code };
  }
  if (answer.id !== id || res.status !== 200) throw new Error(`result with wrong id or status: ${what}`);
  const result = answer.result as {
    content?: Array<{ type?: unknown; text?: unknown }>;
    isError?: unknown;
    structuredContent?: unknown;
  };
  const first = result?.content?.[0];
  if (first?.type !== 'text' || typeof first.text !== 'string') throw new Error(`result without text content: ${what}`);
  if (result.isError === true) {
    // Every tool error, input-schema failures included, is exactly the REST error body and nothing else.
    const code = parseErrorCode(first.text);
    if (code === undefined) throw new Error(`tool error not in the error shape {"error":{"code","message"}}: ${what}`);
    if (result.content?.length !== 1 || result.structuredContent !== undefined)
      throw new Error(`tool error with more than the error body: ${what}`);
    if (code === 'internal_error') throw new Error(`tool failed internally: ${what}`);
    return { kind: 'tool_error', code };
  }
  if (typeof result.structuredContent !== 'object' || result.structuredContent === null)
    throw new Error(`result without structuredContent: ${what}`);
  return { kind: 'ok' };
}

function parseErrorCode(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
    if (typeof body.error?.code !== 'string' || typeof body.error.message !== 'string' || body.error.message === '')
      return undefined;
    return body.error.code in errorStatus ? body.error.code : undefined;
  } catch {
    return undefined;
  }
}

/** A short label for tallying outcomes ("ok", "tool_error:not_found", "rpc_error:-32602"). */
export const outcomeLabel = (o: McpOutcome): string => (o.kind === 'ok' ? 'ok' : `${o.kind}:${o.code}`);
