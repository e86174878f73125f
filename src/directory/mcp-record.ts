import { sql } from 'drizzle-orm';
import { isoTimestamp } from '../db/sql-format';
import type { McpStatus, McpTransport } from '../catalog/mcp-states';

// A listing's MCP server as the public reads show it (docs/mcp-servers.md): the tool record's `mcp` object, on REST,
// MCP get_tool and the tool page alike. Only a probe of the URL the listing names now counts: a row left from an older
// `mcp_url` is read as not checked yet, so a changed URL never shows another server's tools.

/** One tool of the server, as readers see it (the input schema's size stays with the owner's view). */
export interface PublicMcpTool {
  name: string;
  title: string | null;
  description: string | null;
}

/** The `mcp` object of a tool record; null on a listing without an MCP server. */
export interface PublicMcp {
  url: string;
  status: McpStatus;
  transport: McpTransport | null;
  /** What the last probe listed, only while the server is reachable (else empty). */
  tools: PublicMcpTool[];
  checked_at: string | null;
  /** The last probe that listed the tools (the tool page's "last seen"). */
  tools_seen_at: string | null;
}

/**
 * The columns a detail read adds (alias `m` for `mcpJoin`): one primary-key probe, only for the one tool read.
 * The tool list is cut to what readers see in SQL, so the input-schema sizes never leave the database.
 */
export const toolMcpColumns = sql`s.mcp_url, m.status AS mcp_status, m.transport AS mcp_transport,
  CASE WHEN m.status = 'reachable' THEN (SELECT coalesce(jsonb_agg(jsonb_build_object('name', t->>'name', 'title', t->>'title',
    'description', t->>'description') ORDER BY o), '[]'::jsonb) FROM jsonb_array_elements(m.tools) WITH ORDINALITY AS x(t, o)) END AS mcp_tools,
  ${isoTimestamp(sql`m.checked_at`)} AS mcp_checked_at, ${isoTimestamp(sql`m.tools_seen_at`)} AS mcp_tools_seen_at`;

/**
 * The one rule of which probe counts (site_mcp as `m`, sites as `s`): the probe of the URL the listing names now. The
 * owner's record, the tool record, search's `has_mcp` and the registry all read it from here.
 */
export const currentMcpProbe = sql`m.url = s.mcp_url`;

/** The join `toolMcpColumns` reads (sites as `s`): the probe of the URL the listing names now. */
export const mcpJoin = sql`LEFT JOIN site_mcp m ON m.site_id = s.id AND ${currentMcpProbe}`;

/** The columns of toolMcpColumns, as a row carries them (absent on reads that do not join). */
export interface ToolMcpRow {
  mcp_url?: string | null;
  mcp_status?: string | null;
  mcp_transport?: string | null;
  mcp_tools?: PublicMcpTool[] | string | null;
  mcp_checked_at?: string | null;
  mcp_tools_seen_at?: string | null;
}

/** A detail row's MCP server, or null when the listing names none (or the read did not join). */
export function mcpOf(row: ToolMcpRow): PublicMcp | null {
  if (!row.mcp_url) return null;
  const tools = typeof row.mcp_tools === 'string' ? (JSON.parse(row.mcp_tools) as PublicMcpTool[]) : row.mcp_tools;
  const status = (row.mcp_status ?? 'unchecked') as McpStatus;
  return {
    url: row.mcp_url,
    status,
    transport: (row.mcp_transport ?? null) as McpTransport | null,
    tools:
      status === 'reachable'
        ? (tools ?? []).map((t) => ({ name: t.name, title: t.title || null, description: t.description || null }))
        : [],
    checked_at: row.mcp_checked_at ?? null,
    tools_seen_at: row.mcp_tools_seen_at ?? null,
  };
}
