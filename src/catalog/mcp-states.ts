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

/** Why a probe ended as it did, in words for an owner (and the public pages); the HTTP status only when one was sent. */
export function mcpReasonWords(kind: McpReasonKind, httpStatus: number | null = null): string {
  switch (kind) {
    case 'not_checked_yet':
      return 'The MCP server has not been checked yet.';
    case 'timeout':
      return 'The MCP server did not finish answering in time.';
    case 'too_large':
      return 'The MCP server sent more data than a check reads.';
    case 'too_many_tools':
      return `The MCP server lists more tools than a check reads; the first ${MCP_MAX_TOOLS} are shown.`;
    case 'http_error':
      return httpStatus ? `The MCP endpoint answered HTTP ${httpStatus}.` : 'The MCP endpoint answered with an error.';
    case 'not_mcp':
      return 'The address did not answer as an MCP server (no JSON-RPC answer to initialize).';
    case 'protocol_error':
      return 'The MCP server answered with an error or a malformed message.';
    case 'unsupported_protocol_version':
      return 'The MCP server asked for a protocol version this directory does not know.';
    case 'blocked_address':
      return 'The MCP endpoint is (or redirects to) an address that is not public.';
    case 'dns_error':
      return 'The MCP endpoint’s host name could not be resolved.';
    case 'connection_error':
      return 'The MCP endpoint could not be reached.';
    case 'auth_required':
      return 'The MCP server asks for credentials, so its tools cannot be listed.';
  }
}
