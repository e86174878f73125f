// The closed lists of a listing's MCP server (docs/mcp-servers.md): what the last probe of its `mcp_url` found and
// why it is not reachable. The site_mcp table types its columns with them, the API declares them, and the probe
// (src/crawler/) and its recorder decide with them.

/** What the last probe found: tools listed, no answer usable, a server that wants credentials, or not probed yet. */
export const mcpStatuses = ['unchecked', 'reachable', 'unreachable', 'auth_required'] as const;
export type McpStatus = (typeof mcpStatuses)[number];

/** How a probe reached the server: MCP's streamable HTTP, or the older HTTP+SSE transport. */
export const mcpTransports = ['streamable_http', 'sse'] as const;
export type McpTransport = (typeof mcpTransports)[number];

/** Why a probe did not end `reachable` (or why a reachable server's list was cut short). */
export const mcpReasonKinds = [
  'not_checked_yet',
  'timeout',
  'too_large',
  'too_many_tools',
  'http_error',
  'not_mcp',
  'protocol_error',
  'unsupported_protocol_version',
  'blocked_address',
  'dns_error',
  'connection_error',
  'auth_required',
] as const;
export type McpReasonKind = (typeof mcpReasonKinds)[number];

/** The most tools a probe keeps of one server; past it the probe stops paging and records `too_many_tools`. */
export const MCP_MAX_TOOLS = 500;

/** The most changelog entries kept per listing (oldest dropped first). */
export const MCP_CHANGELOG_LENGTH = 20;
