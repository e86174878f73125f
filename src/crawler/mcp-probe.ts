// The MCP probe (docs/mcp-servers.md): a small, bounded MCP client that asks a listing's server who it is and
// which tools it offers. Streamable HTTP first, the older HTTP+SSE transport when the endpoint refuses the POST the
// way old servers do. Bounded in time, bytes, tools and pages; never sends credentials; never throws for anything
// the server can do: every ending is a result with a status and a reason.
import type { Resolver } from '../adapters/resolver/resolver';
import {
  MCP_MAX_TOOLS,
  MCP_PROTOCOL_VERSIONS,
  type McpReasonKind,
  type McpStatus,
  type McpTransport,
} from '../catalog/mcp-states';
import { CrawlDeadlineError } from './crawl-failures';
import { ByteBudget, McpProbeStop } from './mcp-answers';
import { authIssuerOf } from './mcp-auth';
import { serverInfoOf, toolOf, type McpProbedTool, type McpServerInfo } from './mcp-tools';
import {
  LegacyHint,
  legacySse,
  McpAuthRequired,
  type McpChannel,
  streamableHttp,
  type WireOptions,
} from './mcp-transports';

export type { McpProbedTool, McpServerInfo } from './mcp-tools';

export const MCP_PROBE_DEFAULTS = {
  /** The whole probe: every lookup, request and answer. */
  timeoutMs: 10_000,
  maxAnswerBytes: 1024 * 1024,
  maxTotalBytes: 2 * 1024 * 1024,
  /** tools/list pages followed at most. */
  maxPages: 20,
  maxRedirects: 3,
  userAgent: 'tooldir-mcp-probe/0.1',
} as const;

export interface McpProbeOptions {
  fetch: typeof fetch;
  resolver: Resolver;
  allowPrivate?: boolean;
  timeoutMs?: number;
  maxAnswerBytes?: number;
  maxTotalBytes?: number;
  maxTools?: number;
  maxPages?: number;
  userAgent?: string;
}

export interface McpProbeResult {
  status: Exclude<McpStatus, 'unchecked'>;
  /** null for a reachable server whose whole list was read. */
  reasonKind: McpReasonKind | null;
  httpStatus: number | null;
  transport: McpTransport | null;
  protocolVersion: string | null;
  server: McpServerInfo;
  authIssuer: string | null;
  /** The tools listed; null when the probe did not get as far as listing them. */
  tools: McpProbedTool[] | null;
  /** For operators and logs only (addresses, raw causes). */
  detail: string;
}

const NO_SERVER: McpServerInfo = { name: null, title: null, version: null };

/** Probes the MCP endpoint at `url`. */
export async function probeMcpServer(url: string, options: McpProbeOptions): Promise<McpProbeResult> {
  const timeoutMs = options.timeoutMs ?? MCP_PROBE_DEFAULTS.timeoutMs;
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new CrawlDeadlineError(`the MCP probe took longer than ${timeoutMs} ms`)),
    timeoutMs,
  );
  const wire: WireOptions = {
    fetch: options.fetch,
    resolver: options.resolver,
    allowPrivate: options.allowPrivate ?? false,
    maxRedirects: MCP_PROBE_DEFAULTS.maxRedirects,
    userAgent: options.userAgent ?? MCP_PROBE_DEFAULTS.userAgent,
    signal: controller.signal,
    budget: new ByteBudget(
      options.maxAnswerBytes ?? MCP_PROBE_DEFAULTS.maxAnswerBytes,
      options.maxTotalBytes ?? MCP_PROBE_DEFAULTS.maxTotalBytes,
    ),
  };
  const found: Partial<McpProbeResult> = {};
  let channel: McpChannel | undefined;
  try {
    channel = await initialize(url, wire, found);
    const listed = await listTools(channel, options, found);
    return {
      status: 'reachable',
      reasonKind: listed.cut,
      httpStatus: null,
      transport: channel.transport,
      protocolVersion: found.protocolVersion ?? null,
      server: found.server ?? NO_SERVER,
      authIssuer: null,
      tools: listed.tools,
      detail: `${listed.tools.length} tools`,
    };
  } catch (error) {
    return await ending(error, { ...found, transport: channel?.transport ?? found.transport ?? null }, wire);
  } finally {
    clearTimeout(timer);
    channel?.close();
    // Tears down whatever connection is still open (an endless stream, a hung answer).
    if (!controller.signal.aborted) controller.abort(new Error('probe finished'));
  }
}

async function initialize(url: string, wire: WireOptions, found: Partial<McpProbeResult>): Promise<McpChannel> {
  const params = {
    protocolVersion: MCP_PROTOCOL_VERSIONS[0],
    capabilities: {},
    clientInfo: { name: 'tooldir-mcp-probe', version: '0.1' },
  };
  let channel = streamableHttp(url, wire);
  let result: Record<string, unknown>;
  try {
    result = await channel.request(1, 'initialize', params);
  } catch (error) {
    if (!(error instanceof LegacyHint)) throw error;
    // The endpoint refused the POST as servers of the older transport do: try its GET event stream; if that is no
    // event stream either, the POST's own answer is the truer reason.
    try {
      channel = await legacySse(url, wire);
    } catch (legacyError) {
      if (legacyError instanceof McpProbeStop && legacyError.reasonKind !== 'timeout')
        throw new McpProbeStop(
          'http_error',
          `initialize was answered HTTP ${error.httpStatus}; ${legacyError.detail}`,
          error.httpStatus,
        );
      throw legacyError;
    }
    found.transport = 'sse';
    result = await channel.request(1, 'initialize', params);
  }
  found.transport = channel.transport;
  const version = result.protocolVersion;
  if (typeof version !== 'string' || !(MCP_PROTOCOL_VERSIONS as readonly string[]).includes(version)) {
    throw new McpProbeStop(
      'unsupported_protocol_version',
      `the server answered protocol version ${JSON.stringify(version)?.slice(0, 60)}`,
    );
  }
  found.protocolVersion = version;
  found.server = serverInfoOf(result);
  channel.protocolVersion = version;
  await channel.notify('notifications/initialized');
  return channel;
}

async function listTools(
  channel: McpChannel,
  options: McpProbeOptions,
  found: Partial<McpProbeResult>,
): Promise<{ tools: McpProbedTool[]; cut: McpReasonKind | null }> {
  const maxTools = options.maxTools ?? MCP_MAX_TOOLS;
  const maxPages = options.maxPages ?? MCP_PROBE_DEFAULTS.maxPages;
  const tools: McpProbedTool[] = [];
  const seen = new Set<string>();
  const cursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; ; page++) {
    const result = await channel.request(2 + page, 'tools/list', cursor === undefined ? {} : { cursor });
    if (!Array.isArray(result.tools)) throw new McpProbeStop('protocol_error', 'tools/list: no tools');
    for (const entry of result.tools) {
      const tool = toolOf(entry);
      if (!tool || seen.has(tool.name)) continue; // a nameless entry or a repeated name is not another tool
      if (tools.length >= maxTools) return { tools, cut: 'too_many_tools' };
      seen.add(tool.name);
      tools.push(tool);
    }
    found.tools = tools;
    const next = result.nextCursor;
    if (typeof next !== 'string' || next === '' || cursors.has(next)) return { tools, cut: null };
    if (page + 1 >= maxPages) return { tools, cut: 'too_many_tools' };
    cursors.add(next);
    cursor = next;
  }
}

/** Every early ending as a result; an error of ours (not the server's) is reported as a connection error. */
async function ending(error: unknown, found: Partial<McpProbeResult>, wire: WireOptions): Promise<McpProbeResult> {
  const base = {
    transport: found.transport ?? null,
    protocolVersion: found.protocolVersion ?? null,
    server: found.server ?? NO_SERVER,
    tools: null,
  };
  if (error instanceof McpAuthRequired) {
    const issuer = await authIssuerOf(error, wire);
    return {
      ...base,
      status: 'auth_required',
      reasonKind: 'auth_required',
      httpStatus: 401,
      authIssuer: issuer,
      detail: '401',
    };
  }
  const stop =
    error instanceof McpProbeStop
      ? error
      : error instanceof LegacyHint
        ? new McpProbeStop('http_error', error.message, error.httpStatus)
        : new McpProbeStop('connection_error', `probe error: ${String(error).slice(0, 300)}`);
  return {
    ...base,
    status: 'unreachable',
    reasonKind: stop.reasonKind,
    httpStatus: stop.httpStatus,
    authIssuer: null,
    detail: stop.detail,
  };
}
