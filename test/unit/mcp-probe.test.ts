// The MCP probe against the official SDK's servers (streamable HTTP and the older HTTP+SSE transport) and against
// hand-written hostile servers: every fault ends as a result with a status and a reason, within its bounds.
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_MAX_TOOLS, MCP_PROTOCOL_VERSIONS, mcpReasonKinds, mcpReasonWords } from '../../src/catalog/mcp-states';
import { resourceMetadataUrl } from '../../src/crawler/mcp-auth';
import { probeMcpServer, type McpProbeOptions } from '../../src/crawler/mcp-probe';
import { SseParser } from '../../src/crawler/mcp-sse';
import { cutText, toolOf } from '../../src/crawler/mcp-tools';
import { startHostileMcp, type HostileMcp } from '../helpers/hostile-mcp';
import { startSdkMcpServer, type SdkMcpServer } from '../helpers/mcp-test-server';

const violations: string[] = [];

/** Only 127.0.0.1 is ever contacted; `mcp.example` (a public name in the resolver) is mapped onto `port`. */
function loopbackOnly(port?: number): Pick<McpProbeOptions, 'fetch' | 'resolver'> {
  return {
    resolver: async (hostname) => {
      if (hostname === 'mcp.example') return ['93.184.215.14'];
      violations.push(`resolve ${hostname}`);
      throw new Error(`no DNS for ${hostname} in tests`);
    },
    fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input));
      if (url.hostname === 'mcp.example' && port)
        return fetch(`http://127.0.0.1:${port}${url.pathname}${url.search}`, init);
      if (url.hostname !== '127.0.0.1') {
        violations.push(`fetch ${url.href}`);
        throw new Error(`refusing ${url.href}`);
      }
      return fetch(input, init);
    }) as typeof fetch,
  };
}

let sdk: SdkMcpServer;
let hostile: HostileMcp;
const options = (extra: Partial<McpProbeOptions> = {}): McpProbeOptions => ({
  ...loopbackOnly(hostile?.port),
  allowPrivate: true,
  timeoutMs: 3000,
  ...extra,
});

beforeAll(async () => {
  sdk = await startSdkMcpServer([
    { name: 'search', title: 'Search', description: 'Finds things' },
    { name: 'fetch', description: 'Fetches a page' },
  ]);
  hostile = await startHostileMcp();
});
afterAll(async () => {
  await sdk?.close();
  await hostile?.close();
  expect(violations).toEqual([]);
});

describe('probing servers built with the official SDK', () => {
  it('streamable HTTP: initialize, the session id, initialized, tools/list', async () => {
    const result = await probeMcpServer(`${sdk.origin}/mcp`, options());
    expect(result).toMatchObject({
      status: 'reachable',
      reasonKind: null,
      transport: 'streamable_http',
      protocolVersion: MCP_PROTOCOL_VERSIONS[0],
      server: { name: 'acme-test-mcp', version: '1.2.3' },
    });
    expect(result.tools?.map((t) => [t.name, t.title, t.description])).toEqual([
      ['search', 'Search', 'Finds things'],
      ['fetch', null, 'Fetches a page'],
    ]);
    expect(result.tools?.[0]?.input_schema_bytes).toBeGreaterThan(20);
    expect(sdk.sawCredentials).toBe(false);
  });

  it('the older HTTP+SSE transport, after the endpoint refuses the POST', async () => {
    const result = await probeMcpServer(`${sdk.origin}/sse`, options());
    expect(result).toMatchObject({ status: 'reachable', transport: 'sse', server: { name: 'acme-test-mcp' } });
    expect(result.tools?.map((t) => t.name)).toEqual(['search', 'fetch']);
    expect(sdk.requests).toContain('POST /sse');
    expect(sdk.requests).toContain('GET /sse');
  });

  it('offers the newest version the installed SDK supports, and knows the same list', () => {
    expect([...MCP_PROTOCOL_VERSIONS]).toEqual(SUPPORTED_PROTOCOL_VERSIONS);
  });
});

describe('hostile servers end as recorded states, never hangs or throws', () => {
  it('a server that never answers: timeout within the deadline', async () => {
    const started = Date.now();
    const result = await probeMcpServer(`${hostile.origin}/hang`, options({ timeoutMs: 500 }));
    expect(result).toMatchObject({ status: 'unreachable', reasonKind: 'timeout', tools: null });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('an endless event stream: too_large at the byte bound', async () => {
    const result = await probeMcpServer(`${hostile.origin}/endless`, options({ maxAnswerBytes: 64 * 1024 }));
    expect(result).toMatchObject({ status: 'unreachable', reasonKind: 'too_large' });
  });

  it('an endless slow stream: timeout', async () => {
    const result = await probeMcpServer(
      `${hostile.origin}/endless`,
      options({ timeoutMs: 300, maxAnswerBytes: 1e9, maxTotalBytes: 1e9 }),
    );
    expect(['timeout', 'too_large']).toContain(result.reasonKind);
    expect(result.status).toBe('unreachable');
  });

  it('10,000 tools: the first MCP_MAX_TOOLS kept, too_many_tools', async () => {
    const result = await probeMcpServer(`${hostile.origin}/many-tools`, options());
    expect(result).toMatchObject({ status: 'reachable', reasonKind: 'too_many_tools' });
    expect(result.tools).toHaveLength(MCP_MAX_TOOLS);
  });

  it('a 5 MB description: too_large, nothing kept', async () => {
    const result = await probeMcpServer(`${hostile.origin}/huge-description`, options());
    expect(result).toMatchObject({ status: 'unreachable', reasonKind: 'too_large', tools: null });
  });

  it('a long description is cut; the title falls back to the annotations', async () => {
    const result = await probeMcpServer(`${hostile.origin}/long-description`, options());
    const [tool] = result.tools ?? [];
    expect(tool?.title).toBe('Long');
    expect([...(tool?.description ?? '')]).toHaveLength(1000);
  });

  it('a server that lies about its protocol version', async () => {
    const result = await probeMcpServer(`${hostile.origin}/liar`, options());
    expect(result).toMatchObject({ status: 'unreachable', reasonKind: 'unsupported_protocol_version' });
  });

  it('pages follow nextCursor; a list that never ends stops at the page bound', async () => {
    const paged = await probeMcpServer(`${hostile.origin}/paged`, options());
    expect(paged.tools?.map((t) => t.name)).toEqual(['page1', 'page2']);
    expect(paged.reasonKind).toBeNull();
    const endless = await probeMcpServer(`${hostile.origin}/cursor-loop`, options({ maxPages: 5 }));
    expect(endless).toMatchObject({ status: 'reachable', reasonKind: 'too_many_tools' });
    expect(endless.tools).toHaveLength(5);
  });

  it('a redirect to a private address is blocked_address and never followed', async () => {
    const result = await probeMcpServer('http://mcp.example/redirect-private', {
      ...loopbackOnly(hostile.port),
      allowPrivate: false,
      timeoutMs: 3000,
    });
    expect(result).toMatchObject({ status: 'unreachable', reasonKind: 'blocked_address' });
  });

  it('a loopback endpoint without CRAWL_ALLOW_PRIVATE is blocked_address', async () => {
    const result = await probeMcpServer(`${hostile.origin}/paged`, { ...options(), allowPrivate: false });
    expect(result).toMatchObject({ status: 'unreachable', reasonKind: 'blocked_address' });
  });

  it('401 with protected-resource metadata: auth_required with the issuer', async () => {
    const result = await probeMcpServer(`${hostile.origin}/auth-with-metadata`, options());
    expect(result).toMatchObject({
      status: 'auth_required',
      reasonKind: 'auth_required',
      httpStatus: 401,
      authIssuer: 'https://auth.example.com/',
      tools: null,
    });
  });

  it('401 without metadata: auth_required, no issuer', async () => {
    const result = await probeMcpServer(`${hostile.origin}/auth-bare`, options());
    expect(result).toMatchObject({ status: 'auth_required', authIssuer: null });
  });

  it('a web page, an unknown path, a JSON-RPC error', async () => {
    expect(await probeMcpServer(`${hostile.origin}/html`, options())).toMatchObject({ reasonKind: 'not_mcp' });
    expect(await probeMcpServer(`${hostile.origin}/nothing-here`, options())).toMatchObject({
      reasonKind: 'http_error',
      httpStatus: 404,
    });
    expect(await probeMcpServer(`${hostile.origin}/rpc-error`, options())).toMatchObject({
      reasonKind: 'protocol_error',
    });
  });
});

describe('parsing', () => {
  it('server-sent events split anywhere, CRLF across pieces, comments and multi-line data', () => {
    const parser = new SseParser();
    const text = ': keep-alive\r\nevent: endpoint\r\ndata: /messages?x=1\r\n\r\ndata: {"a":\ndata: 1}\n\n';
    const events = [...text].flatMap((char) => parser.push(char));
    expect(events).toEqual([
      { event: 'endpoint', data: '/messages?x=1' },
      { event: 'message', data: '{"a":\n1}' },
    ]);
  });

  it('texts are cut, control characters dropped, nameless tools skipped', () => {
    expect(cutText('a\u0000b\n  c', 10)).toBe('a b c');
    expect(cutText('x'.repeat(20), 5)).toBe('xxxx…');
    expect(cutText(42, 5)).toBeNull();
    expect(toolOf({ description: 'no name' })).toBeNull();
    expect(toolOf({ name: 'a', inputSchema: { type: 'object' } })).toEqual({
      name: 'a',
      title: null,
      description: null,
      input_schema_bytes: 17,
    });
  });

  it('the resource_metadata parameter, quoted or not', () => {
    expect(resourceMetadataUrl('Bearer resource_metadata="https://a.example/m", scope="x"')).toBe(
      'https://a.example/m',
    );
    expect(resourceMetadataUrl('Bearer realm="x", resource_metadata=https://a.example/m')).toBe('https://a.example/m');
    expect(resourceMetadataUrl('Bearer realm="x"')).toBeUndefined();
    expect(resourceMetadataUrl(null)).toBeUndefined();
  });

  it('every reason has words', () => {
    for (const kind of mcpReasonKinds) expect(mcpReasonWords(kind, 404).length).toBeGreaterThan(5);
    expect(mcpReasonWords('http_error', 404)).toContain('404');
  });
});
