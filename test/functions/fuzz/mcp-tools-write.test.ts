// Fuzz of the MCP submission tools, submit_site and get_site_status (the generators, the app and the properties: ./mcp-tools-fuzz.ts).
import { describe, expect, it } from 'vitest';
import { RUNS, count, fuzzTool, useMcpFuzzApp } from './mcp-tools-fuzz';

useMcpFuzzApp();

describe('fuzz MCP tools/call: submission tools', () => {
  it(`submit_site: ${RUNS} generated inputs, no 5xx, well-formed answers, refused ones change nothing`, async () => {
    const seen = await fuzzTool('submit_site', true);
    expect(seen.get('ok') ?? 0).toBeGreaterThan(RUNS / 20); // accepted: pending payment on the none-tier key
    expect(seen.get('tool_error:unauthorized') ?? 0).toBeGreaterThan(0);
    expect(count(seen, 'tool_error') + count(seen, 'rpc_error')).toBeGreaterThan(RUNS / 4);
    expect(seen.get('tool_error:invalid_request') ?? 0).toBeGreaterThan(RUNS / 20); // schema failures, in the error shape
  }, 240_000);

  it(`get_site_status: ${RUNS} generated inputs, no 5xx, well-formed answers, no row changed`, async () => {
    const seen = await fuzzTool('get_site_status', false);
    expect(seen.get('ok') ?? 0).toBeGreaterThan(0);
    expect(seen.get('tool_error:not_found') ?? 0).toBeGreaterThan(0);
    expect(seen.get('tool_error:unauthorized') ?? 0).toBeGreaterThan(0);
  }, 240_000);
});
