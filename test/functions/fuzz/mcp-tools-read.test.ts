// Fuzz of the MCP directory tools, search_tools and get_tool (the generators, the app and the properties: ./mcp-tools-fuzz.ts).
import { describe, expect, it } from 'vitest';
import { RUNS, count, fuzzTool, useMcpFuzzApp } from './mcp-tools-fuzz';

useMcpFuzzApp();

describe('fuzz MCP tools/call: directory tools', () => {
  it(`search_tools: ${RUNS} generated inputs, no 5xx, well-formed answers, no row changed`, async () => {
    const seen = await fuzzTool('search_tools', false);
    expect(seen.get('ok') ?? 0).toBeGreaterThan(RUNS / 10);
    expect(count(seen, 'tool_error') + count(seen, 'rpc_error')).toBeGreaterThan(RUNS / 10);
    expect(seen.get('tool_error:invalid_request') ?? 0).toBeGreaterThan(RUNS / 20); // schema failures, in the error shape
  }, 240_000);

  it(`get_tool: ${RUNS} generated inputs, no 5xx, well-formed answers, no row changed`, async () => {
    const seen = await fuzzTool('get_tool', false);
    expect(seen.get('tool_error:not_found') ?? 0).toBeGreaterThan(0);
    expect(seen.get('tool_error:invalid_request') ?? 0).toBeGreaterThan(0);
  }, 240_000);
});
