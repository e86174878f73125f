// The owner's view of a listing's MCP server (docs/mcp-servers.md): the `mcp` object of the site record (REST, MCP,
// the CLI and the account pages), declared once with its mapping from the stored row. A leaf module: the CLI reads it.
import { z } from 'zod';
import {
  mcpReasonKinds,
  mcpReasonWords,
  mcpStatuses,
  mcpTransports,
  type McpReasonKind,
  type McpStatus,
  type McpTransport,
} from './catalog/mcp-states';
import { isoTimestampSchema } from './timestamp-schemas';

const toolSchema = z.object({
  name: z.string(),
  title: z.string().nullable(),
  description: z.string().nullable(),
  input_schema_bytes: z.number().int(),
});

const changeSchema = z.object({
  changed_at: isoTimestampSchema('When a probe found the tool list changed'),
  added: z.array(z.string()),
  removed: z.array(z.string()),
  changed: z.array(z.string()),
});

export const mcpOwnerSchema = z
  .object({
    url: z.string(),
    status: z.enum(mcpStatuses),
    reason_kind: z.enum(mcpReasonKinds).nullable(),
    reason: z.string().nullable(),
    transport: z.enum(mcpTransports).nullable(),
    protocol_version: z.string().nullable(),
    server: z.object({ name: z.string().nullable(), title: z.string().nullable(), version: z.string().nullable() }),
    auth_issuer: z.string().nullable(),
    tools: z.array(toolSchema),
    tool_count: z.number().int(),
    checked_at: isoTimestampSchema('When the server was last probed; null before the first probe').nullable(),
    tools_seen_at: isoTimestampSchema('When the tools were last listed').nullable(),
    changelog: z.array(changeSchema).describe('Latest first'),
  })
  .describe('What the last probe of mcp_url found (docs/mcp-servers.md); only when the listing has an mcp_url');
export type McpOwnerView = z.infer<typeof mcpOwnerSchema>;

/** site_mcp's row (and its changes) as the site record reads it: JSON from SQL, null before the first probe. */
export interface StoredMcp {
  url: string;
  status: McpStatus;
  reason_kind: McpReasonKind | null;
  http_status: number | null;
  transport: McpTransport | null;
  protocol_version: string | null;
  server_name: string | null;
  server_title: string | null;
  server_version: string | null;
  auth_issuer: string | null;
  tools: McpOwnerView['tools'];
  tool_count: number;
  checked_at: string | null;
  tools_seen_at: string | null;
  changelog: McpOwnerView['changelog'] | null;
}

/** The owner's view of `mcpUrl`: what its last probe found, or `unchecked` until a probe of this URL is recorded. */
export function toMcpOwnerView(mcpUrl: string, stored: StoredMcp | null | undefined): McpOwnerView {
  if (!stored || stored.url !== mcpUrl) {
    return {
      url: mcpUrl,
      status: 'unchecked',
      reason_kind: 'not_checked_yet',
      reason: mcpReasonWords('not_checked_yet'),
      transport: null,
      protocol_version: null,
      server: { name: null, title: null, version: null },
      auth_issuer: null,
      tools: [],
      tool_count: 0,
      checked_at: null,
      tools_seen_at: null,
      changelog: [],
    };
  }
  return {
    url: stored.url,
    status: stored.status,
    reason_kind: stored.reason_kind,
    reason: stored.reason_kind ? mcpReasonWords(stored.reason_kind, stored.http_status) : null,
    transport: stored.transport,
    protocol_version: stored.protocol_version,
    server: { name: stored.server_name, title: stored.server_title, version: stored.server_version },
    auth_issuer: stored.auth_issuer,
    tools: stored.tools ?? [],
    tool_count: Number(stored.tool_count),
    checked_at: stored.checked_at,
    tools_seen_at: stored.tools_seen_at,
    changelog: stored.changelog ?? [],
  };
}
