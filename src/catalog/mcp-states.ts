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

/**
 * The MCP protocol versions the probe understands, newest first: the list the installed SDK supports (a unit test
 * holds the two equal, so an SDK upgrade that adds a version shows here). The probe offers the first; a server that
 * answers with a version not in this list is `unsupported_protocol_version`.
 */
export const MCP_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'] as const;

/** Why a probe ended as it did, in words for an owner; the HTTP status only when one was sent. */
export function mcpReasonWords(kind: McpReasonKind, httpStatus: number | null = null): string {
  return kind === 'http_error' && httpStatus ? `HTTP ${httpStatus}.` : MCP_REASON_WORDS[kind];
}

const MCP_REASON_WORDS: Record<McpReasonKind, string> = {
  not_checked_yet: 'Not checked yet.',
  timeout: 'No answer in time.',
  too_large: 'The answer was too large.',
  too_many_tools: `More than ${MCP_MAX_TOOLS} tools; the first are shown.`,
  http_error: 'An HTTP error.',
  not_mcp: 'Not an MCP server.',
  protocol_error: 'An error or a malformed message.',
  unsupported_protocol_version: 'An unknown protocol version.',
  blocked_address: 'A non-public address.',
  dns_error: 'The host name does not resolve.',
  connection_error: 'Could not connect.',
  auth_required: 'Asks for credentials.',
};
